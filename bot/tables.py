"""The Discord side of a game: lobby, guided turns, publishing the service's results.

A thin adapter over :class:`bot.service.GameService` (no rules here): interactions become
service calls; a :class:`~bot.service.Result` becomes messages — its public posts, gathered
per turn, as one Components V2 post with the map (rendered in a worker thread) that pings
only the players who decide next; its private posts as ephemeral replies to the player who
acted (others' private news waits for their ``/hand``); errors privately, in plain words.
Lasting messages are sent with the bot token (interaction tokens expire after 15 minutes).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_views import (
    NO_LONGER,
    NOT_YOUR_TURN,
    Step,
    confirm_view,
    fit_lines,
    guided_step,
    lobby_layout,
    step_view,
    turn_buttons,
    turn_layout,
)
from bot.service import (
    Frame,
    GameService,
    ImageRequest,
    Post,
    Result,
    SeatSpec,
    ServiceError,
    render_image,
)
from bot.settings import BotSettings
from rules import GameState, deciders, format_action, get_catalog, legal_actions
from storage import GameRecord, GameSettings, GameStatus, Seat
from storage.errors import ChannelBusy, StorageError
from storage.models import SeatKind

log = logging.getLogger("bot.tables")

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024


@dataclass
class _Chunk:
    """Public lines gathered until a turn ends, and the images to post with them."""

    lines: list[str] = field(default_factory=list)
    images: list[ImageRequest] = field(default_factory=list)
    frame: Frame | None = None


class Tables:
    """Every game the bot runs, seen from Discord (one per channel)."""

    def __init__(self, client: discord.Client, service: GameService, settings: BotSettings):
        self.client = client
        self.svc = service
        self.settings = settings
        self.inbox: dict[tuple[int, int], list[str]] = {}
        self.names: dict[int, str] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.in_flight = 0
        self.next_seed: int | None = None  # tests: the seed of the next game (else random)

    @property
    def store(self) -> Any:
        return self.svc.store

    def lock(self, game_id: int) -> asyncio.Lock:
        lk = self._locks.get(game_id)
        if lk is None:
            lk = self._locks[game_id] = asyncio.Lock()
        return lk

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait for in-flight saves and posts to finish (shutdown)."""
        end = time.monotonic() + timeout
        while self.in_flight and time.monotonic() < end:
            await asyncio.sleep(0.05)

    # ------------------------------------------------------------------ lookups

    async def channel_game(self, channel_id: int | None) -> GameRecord | None:
        if channel_id is None:
            return None
        rec: GameRecord | None = await self.store.get_active_game(channel_id)
        return rec

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        info = await self.svc.info(game_id)
        for i, s in enumerate(info.seats):
            if s.user_id == user_id and s.ai is None:
                return i
        return None

    async def running_game(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[int, int | None] | None:
        """The channel's running game and the user's seat in it; says why not otherwise."""
        rec = await self.channel_game(interaction.channel_id)
        if rec is None or rec.status is GameStatus.LOBBY:
            what = "only a lobby" if rec is not None else "no game"
            await self.reply(
                interaction, f"This channel has {what} running. `/game new` starts one."
            )
            return None
        return rec.id, await self.seat_of(rec.id, interaction.user.id)

    @staticmethod
    async def reply(
        interaction: discord.Interaction[Any],
        text: str,
        *,
        files: Sequence[discord.File] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        """A private (ephemeral) answer, whether or not the interaction was deferred."""
        text = text[:1990]
        kw: dict[str, Any] = {"ephemeral": True, "files": list(files)}
        if view is not None:
            kw["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(text, **kw)
        else:
            await interaction.response.send_message(text, **kw)

    def upload_limit(self, interaction: discord.Interaction[Any] | None) -> int:
        limit = getattr(interaction, "filesize_limit", None) if interaction else None
        return int(limit) if limit else DEFAULT_UPLOAD_LIMIT

    async def images(
        self, reqs: Sequence[tuple[str, ImageRequest, Frame]], limit: int
    ) -> list[discord.File]:
        """Draw the images in a worker thread; drop those that would pass the upload limit."""
        out: list[discord.File] = []
        total = 0
        for name, req, frame in reqs:
            data = await asyncio.to_thread(render_image, req, frame)
            if data is None or total + len(data) > limit:
                continue
            total += len(data)
            out.append(discord.File(io.BytesIO(data), filename=name))
        return out

    # ------------------------------------------------------------------ lobby

    async def new_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        scenario: str | None,
        players: int,
        ai_seats: int,
        ai_level: str,
        deadline_hours: int,
    ) -> None:
        if interaction.channel_id is None:
            await self.reply(interaction, "Games are played in a server channel.")
            return
        if scenario:
            maps = get_catalog(None).maps
            if scenario not in maps:
                await self.reply(interaction, f"No scenario `{scenario}`. Choose from the list.")
                return
        if not 1 <= players <= 4 or not 0 <= ai_seats < players:
            await self.reply(interaction, "A game has 1 to 4 players, at least one of them human.")
            return
        uid = interaction.user.id
        self.names[uid] = interaction.user.display_name
        seats = [Seat.discord(0, uid)]
        seats += [Seat.ai(i + 1, ai_level, name=f"AI {ai_level}") for i in range(ai_seats)]
        settings = GameSettings(
            scenario=scenario or "auto",
            player_count=players,
            turn_timer_seconds=deadline_hours * 3600,
            extra={"lobby": True, "host": uid, "ai_level": ai_level},
        )
        try:
            rec = await self.store.create_game(
                interaction.channel_id,
                initial_state_json="{}",
                settings=settings,
                guild_id=interaction.guild_id,
                seats=seats,
                status=GameStatus.LOBBY,
            )
        except ChannelBusy:
            await self.reply(interaction, "This channel already has a game: see `/game status`.")
            return
        log.info("lobby %s opened in channel %s", rec.id, rec.channel_id)
        await interaction.response.send_message(
            view=lobby_layout(self.lobby_text(rec), rec.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    def lobby_text(self, rec: GameRecord) -> str:
        s = rec.settings
        scen = s.scenario if s.scenario != "auto" else "the standard map for the player count"
        lines = [f"## Brazil: Imperial — new game #{rec.id}", f"Scenario: {scen}"]
        if s.turn_timer_seconds:
            lines.append(f"Turn deadline: {s.turn_timer_seconds // 3600} h")
        for n in range(s.player_count):
            seat = rec.seat(n)
            lines.append(f"{n + 1}. {seat.label() if seat else '(open)'}")
        lines.append("Join, add computer players, then Start (empty seats become AI players).")
        return "\n".join(lines)

    async def lobby_press(
        self, interaction: discord.Interaction[Any], game_id: int, op: str
    ) -> None:
        try:
            rec = await self.store.get_game(game_id)
        except StorageError:
            rec = None
        if rec is None or rec.status is not GameStatus.LOBBY:
            await self.reply(interaction, "This lobby is closed.")
            return
        uid = interaction.user.id
        self.names[uid] = interaction.user.display_name
        mine = rec.seats_of(uid)
        free = [n for n in range(rec.settings.player_count) if rec.seat(n) is None]
        level = str(rec.settings.extra.get("ai_level") or self.settings.default_ai)
        if op == "join":
            if mine:
                await self.reply(interaction, "You are already in this game.")
                return
            if not free:
                await self.reply(interaction, "The game is full.")
                return
            rec = await self.store.assign_seat(game_id, Seat.discord(free[0], uid))
        elif op == "leave":
            if not mine:
                await self.reply(interaction, "You are not in this game.")
                return
            for n in mine:
                rec = await self.store.remove_seat(game_id, n)
            if not any(s.kind is SeatKind.DISCORD for s in rec.seats):
                rec = await self.store.set_status(game_id, GameStatus.ABANDONED)
                await interaction.response.edit_message(
                    view=lobby_layout(
                        self.lobby_text(rec) + "\nEveryone left.", game_id, open_=False
                    )
                )
                return
        elif op == "ai":
            if not mine:
                await self.reply(interaction, "Join the game first.")
                return
            if not free:
                await self.reply(interaction, "The game is full.")
                return
            rec = await self.store.assign_seat(game_id, Seat.ai(free[0], level, name=f"AI {level}"))
        elif op == "start":
            if uid != rec.settings.extra.get("host") and not mine:
                await self.reply(interaction, "Only a seated player can start the game.")
                return
            await self.start(interaction, rec)
            return
        await interaction.response.edit_message(
            view=lobby_layout(self.lobby_text(rec), game_id),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _name(self, uid: int, n: int) -> str:
        if uid in self.names:
            return self.names[uid]
        try:
            user = self.client.get_user(uid) or await self.client.fetch_user(uid)
            self.names[uid] = user.display_name
            return user.display_name
        except discord.HTTPException:
            return f"Player {n + 1}"

    async def start(self, interaction: discord.Interaction[Any], lobby: GameRecord) -> None:
        await interaction.response.defer()
        level = str(lobby.settings.extra.get("ai_level") or self.settings.default_ai)
        specs: list[SeatSpec] = []
        for n in range(lobby.settings.player_count):
            seat = lobby.seat(n)
            if seat is not None and seat.kind is SeatKind.DISCORD and seat.user_id is not None:
                name = await self._name(seat.user_id, len(specs))
                specs.append(SeatSpec(name=name, user_id=seat.user_id))
            else:
                lv = seat.ai_level if seat is not None and seat.ai_level else level
                specs.append(SeatSpec(name=f"AI {lv} {len(specs) + 1}", ai=lv))
        scenario = lobby.settings.scenario if lobby.settings.scenario != "auto" else None
        await self.store.set_status(lobby.id, GameStatus.ABANDONED)
        try:
            res = await self.svc.new_game(
                specs,
                scenario=scenario or self.settings.default_scenario,
                seed=self.next_seed,
                channel_id=lobby.channel_id,
                guild_id=lobby.guild_id,
            )
        except ServiceError as e:
            await self.reply(interaction, f"The game could not start: {e}")
            return
        log.info(
            "game %s started in channel %s (lobby %s)", res.game_id, lobby.channel_id, lobby.id
        )
        await interaction.edit_original_response(
            view=lobby_layout(
                self.lobby_text(lobby).rsplit("\n", 1)[0] + f"\nStarted as game #{res.game_id}.",
                lobby.id,
                open_=False,
            )
        )
        await self.publish(lobby.channel_id, res, interaction=interaction, force=True)

    # ------------------------------------------------------------------ acting

    async def act(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: int,
        *,
        text: str | None = None,
        index: int | None = None,
        version: int | None = None,
    ) -> Result | None:
        """Apply a typed command or the legal action number ``index`` (checked against
        ``version``), publish, let the AI seats play. Errors go privately to the actor."""
        self.in_flight += 1
        try:
            async with self.lock(game_id):
                if index is not None:
                    st = await self.svc.state(game_id)
                    rec = await self.store.get_game(game_id)
                    acts = legal_actions(st, seat) if seat in deciders(st) else []
                    if rec.version != version or not 0 <= index < len(acts):
                        await self.reply(interaction, NO_LONGER)
                        return None
                    res = await self.svc.choose(game_id, seat, acts[index])
                else:
                    res = await self.svc.act(game_id, seat, text or "")
                if res.errors:
                    msg = "\n".join(f"That did not work: {e.text()}" for e in res.errors)
                    await self.reply(interaction, msg)
                    return res
                rec = await self.store.get_game(game_id)
                await self.publish(rec.channel_id, res, interaction=interaction, actor=seat)
                return res
        finally:
            self.in_flight -= 1

    async def publish(
        self,
        channel_id: int,
        res: Result,
        *,
        interaction: discord.Interaction[Any] | None = None,
        actor: int | None = None,
        force: bool = False,
    ) -> None:
        """Post what ``res`` (and the AI turns that follow) produced: one public V2 post per
        finished turn with the map; the last one pings who decides now and carries the
        buttons. Private posts go to the actor ephemerally, or wait in others' inboxes."""
        gid = res.game_id
        info = await self.svc.info(gid)
        chunks: list[_Chunk] = [_Chunk()]
        limit = self.upload_limit(interaction)

        deliveries: list[Post] = []

        def take(r: Result) -> None:
            for post in r.posts:
                self._take(post, r, chunks, info.seats, actor, deliveries)

        take(res)
        await self.svc.run_ai_turns(gid, on_step=take)
        st = await self.svc.state(gid)
        version = (await self.store.get_game(gid)).version
        if len(chunks) > 1 and not chunks[-1].images:
            chunks[-2].lines += chunks.pop().lines  # e.g. the final scores after the last map
        last = chunks[-1]
        changed = force or any(c.lines for c in chunks)
        if not changed:
            return
        for c in chunks[:-1]:
            await self._post(channel_id, gid, c, st, info.seats, version, limit, final=False)
        await self._post(channel_id, gid, last, st, info.seats, version, limit, final=True)
        if interaction is not None and actor is not None:
            for p in deliveries:
                await self.reply(interaction, f"Only you see this: {p.text}")

    def _take(
        self,
        post: Post,
        r: Result,
        chunks: list[_Chunk],
        seats: Sequence[SeatSpec],
        actor: int | None,
        deliveries: list[Post],
    ) -> None:
        if post.audience == "public":
            c = chunks[-1]
            c.lines.append(post.text)
            if post.images:
                c.images += post.images
                c.frame = r.frames[post.images[0].version]
                chunks.append(_Chunk())
            return
        seat = int(post.audience)
        if seat < len(seats) and seats[seat].ai:
            return  # an AI's private news: nobody reads it
        if seat == actor:
            deliveries.append(post)
        else:
            self.inbox.setdefault((r.game_id, seat), []).append(post.text)

    async def _post(
        self,
        channel_id: int,
        gid: int,
        chunk: _Chunk,
        st: GameState,
        seats: Sequence[SeatSpec],
        version: int,
        limit: int,
        *,
        final: bool,
    ) -> None:
        frame = chunk.frame or Frame(version, st)
        reqs: list[tuple[str, ImageRequest, Frame]] = []
        kinds_seen: set[str] = set()
        for req in chunk.images:
            if req.seat is not None or req.kind in kinds_seen:
                continue  # public posts draw only the spectator's view
            kinds_seen.add(req.kind)
            reqs.append((f"{req.kind}.png", req, frame))
        if "map" not in kinds_seen:
            reqs.insert(0, ("map.png", ImageRequest("map", None, frame.version), frame))
        files = await self.images(reqs, limit)
        footer, mentions, buttons = "", discord.AllowedMentions.none(), []
        if final:
            footer, users, kinds = self._next_text(st, seats)
            if users:
                mentions = discord.AllowedMentions(
                    users=[discord.Object(u) for u in users], everyone=False, roles=False
                )
            if kinds:
                buttons = turn_buttons(gid, version, kinds)
        view = turn_layout(
            fit_lines(chunk.lines, 3400), [f.filename for f in files], footer, buttons
        )
        channel = self.client.get_partial_messageable(channel_id)
        await channel.send(view=view, files=files, allowed_mentions=mentions)

    def _next_text(
        self, st: GameState, seats: Sequence[SeatSpec]
    ) -> tuple[str, list[int], list[str]]:
        """Who decides now (a ping for the humans), the deadline, and the decision kinds."""
        if st.phase == "ended":
            return "**The game is over.** Results are saved: `/stats`.", [], []
        deadline = int(time.time()) + self.settings.turn_deadline_hours * 3600
        parts, users, kinds = [], [], []
        for d in self.svc._decisions(st, seats, choices=False):
            spec = seats[d.seat] if d.seat < len(seats) else None
            if spec is not None and spec.user_id is not None and not d.ai:
                users.append(spec.user_id)
                kinds.append(d.kind)
                what = (
                    "your turn"
                    if d.kind == "turn"
                    else f"please decide ({d.kind.replace('_', ' ')})"
                )
                parts.append(f"<@{spec.user_id}>: {what} — by <t:{deadline}:f> (<t:{deadline}:R>)")
            else:
                parts.append(f"{d.who} is thinking…")
        return "\n".join(parts), users, kinds

    # ------------------------------------------------------------------ guided flow

    async def _decider(
        self, interaction: discord.Interaction[Any], game_id: int, version: int | None
    ) -> tuple[int, GameState] | None:
        seat = await self.seat_of(game_id, interaction.user.id)
        rec = await self.store.get_game(game_id)
        if rec.status is not GameStatus.RUNNING and not rec.status.is_active:
            await self.reply(interaction, "This game is over.")
            return None
        st = GameState.model_validate_json(rec.state_json)
        if seat is None or seat not in deciders(st):
            await self.reply(interaction, NOT_YOUR_TURN)
            return None
        if version is not None and rec.version != version:
            await self.reply(interaction, NO_LONGER)
            return None
        return seat, st

    async def open_flow(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        got = await self._decider(interaction, game_id, version)
        if got is None:
            return
        seat, st = got
        step = guided_step([format_action(st, a) for a in legal_actions(st, seat)])
        await self.reply(interaction, self._step_text(step), view=step_view(game_id, version, step))

    @staticmethod
    def _step_text(step: Step, head: str = "") -> str:
        more = f"\n({step.more} more choices: type them with `/play`.)" if step.more else ""
        return (head + "\n" if head else "") + step.prompt + more

    async def flow_choice(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, value: str
    ) -> None:
        got = await self._decider(interaction, game_id, version)
        if got is None:
            return
        seat, st = got
        acts = legal_actions(st, seat)
        texts = [format_action(st, a) for a in acts]
        if value.startswith("i:") and value[2:].isdigit() and int(value[2:]) < len(acts):
            i = int(value[2:])
            text = f"**{texts[i]}**\n{self._cost_text(st, acts[i])}Confirm?"
            await interaction.response.edit_message(
                content=text, view=confirm_view(game_id, version, i)
            )
            return
        prefix = value[2:] if value.startswith("p:") else ""
        step = guided_step(texts, prefix)
        await interaction.response.edit_message(
            content=self._step_text(step), view=step_view(game_id, version, step)
        )

    @staticmethod
    def _cost_text(st: GameState, action: Any) -> str:
        from rules.paying import cost_of, default_payment

        try:
            cost = cost_of(st, action)
            if cost is None or cost.free:
                return ""
            pay = default_payment(st, action)
        except Exception:  # the engine checks again on confirm
            return ""
        paid = ", ".join(f"{p.what} ({p.source})" for p in pay) if pay else "no safe default"
        return (
            f"Costs {cost.text}. Default payment: {paid}. "
            "(Another payment: type the command with `pay ...` in `/play`.)\n"
        )

    async def confirm(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, index: int
    ) -> None:
        got = await self._decider(interaction, game_id, version)
        if got is None:
            return
        seat, _ = got
        await interaction.response.defer()
        res = await self.act(interaction, game_id, seat, index=index, version=version)
        if res is None or res.errors:
            return
        rec = await self.store.get_game(game_id)
        st = GameState.model_validate_json(rec.state_json)
        done = "Done."
        if seat in deciders(st):
            step = guided_step([format_action(st, a) for a in legal_actions(st, seat)])
            await interaction.edit_original_response(
                content=self._step_text(step, done + " Still yours:"),
                view=step_view(game_id, rec.version, step),
            )
        else:
            await interaction.edit_original_response(content=done, view=None)

    # ------------------------------------------------------------------ private looks

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        seat = await self.seat_of(game_id, interaction.user.id)
        if seat is None:
            await self.reply(interaction, "You have no seat in this game.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.svc.hand(game_id, seat)
        files: list[discord.File] = []
        texts: list[str] = []
        for post in res.posts:
            texts.append(post.text)
            reqs = [("hand.png", r, res.frames[r.version]) for r in post.images]
            files += await self.images(reqs, self.upload_limit(interaction))
        news = self.inbox.pop((game_id, seat), [])
        if news:
            texts.append("Private news:\n" + "\n".join(f"- {t}" for t in news))
        await interaction.followup.send("\n".join(texts)[:1990], files=files, ephemeral=True)
