"""The Discord side of a game: lobby, guided turns, publishing the service's results.

A thin adapter over :class:`service.GameService` (no rules here): interactions become
service calls; a :class:`~service.Result` becomes messages — its public posts, gathered
per turn, as one Components V2 post with the map (rendered in a worker thread) that pings
only the players who decide next; its private posts as ephemeral replies to the player who
acted (others' private news waits for their ``/hand``); errors privately, in plain words.
Lasting messages are sent with the bot token (interaction tokens expire after 15 minutes).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from pydantic import JsonValue

from bot.discord_views import (
    NO_LONGER,
    NO_SEAT,
    NOT_YOUR_TURN,
    Step,
    confirm_view,
    fit_lines,
    guided_step,
    lobby_layout,
    pay_view,
    status_layout,
    step_view,
    turn_buttons,
    turn_layout,
)
from bot.settings import BotSettings
from rules import GameState, deciders, format_action, get_catalog, legal_actions, pending_for
from service import (
    Frame,
    GameService,
    ImageRequest,
    Post,
    Result,
    SeatSpec,
    ServiceError,
    render_image,
)
from storage import GameRecord, GameSettings, GameStatus, Seat
from storage.errors import ChannelBusy, StorageError
from storage.models import SeatKind

log = logging.getLogger("bot.tables")

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
LOBBY_MANAGER = "Only the lobby's creator or a moderator can add computer players or start."


def timeline_frames(entries: Sequence[Any]) -> list[tuple[GameState, list[Any]]]:
    """The spectator's view of the state after every turn, and that turn's events, replayed
    from a game's log (undo and rollback entries restore their snapshot)."""
    from rules import apply, parse_action, view

    frames: list[tuple[GameState, list[Any]]] = []
    st: GameState | None = None
    turn: list[Any] = []
    for e in entries:
        if e.action_json is None:
            if e.snapshot_json:
                st, turn = GameState.model_validate_json(e.snapshot_json), []
            continue
        if st is None:
            continue
        after, events = apply(st, parse_action(e.action_json))
        turn += events
        if (st.current, st.round, st.phase) != (after.current, after.round, after.phase):
            frames.append((view(after, None), turn))
            turn = []
        st = after
    if st is not None and turn:
        frames.append((view(st, None), turn))
    return frames


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
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # tests: a recorder
        self._rng = random.SystemRandom()
        # pacing (bot.scheduler.Pacer): deadlines per (game, seat) as UNIX times (None: the
        # game is paused) and the status message's pacing lines per game
        self.pacer: Any = None
        self.due: dict[tuple[int, int], int | None] = {}
        self.status_notes: dict[int, list[str]] = {}

    async def auto_answer_pause(self, seat: int, kind: str) -> None:
        """Before the bot answers a secret decision for a seat (an AI's battle cards), wait a
        random time in ``settings.auto_answer_delay``: a quick answer would tell "no cards"."""
        lo, hi = self.settings.auto_answer_delay
        delay = self._rng.uniform(lo, hi)
        log.debug("automatic %s answer for seat %s in %.0f s", kind, seat, delay)
        if delay > 0:
            await self.sleep(delay)

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

    async def seated_game(self, interaction: discord.Interaction[Any]) -> tuple[int, int] | None:
        """The channel's running game and the user's seat in it, when they have one; says
        why not otherwise."""
        found = await self.running_game(interaction)
        if found is None:
            return None
        gid, seat = found
        if seat is None:
            await self.reply(interaction, NO_SEAT)
            return None
        return gid, seat

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
            view=lobby_layout(self.lobby_text(rec), rec.id, colours=self.colour_choices()),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @staticmethod
    def colour_choices() -> list[tuple[str, str]]:
        return [(c.id, str(getattr(c, "name", c.id))) for c in get_catalog(None).colours.values()]

    async def _open_lobby(
        self, interaction: discord.Interaction[Any], game_id: int
    ) -> GameRecord | None:
        """The game ``game_id`` while it is still a lobby; says it is closed otherwise."""
        rec: GameRecord | None
        try:
            rec = await self.store.get_game(game_id)
        except StorageError:
            rec = None
        if rec is None or rec.status is not GameStatus.LOBBY:
            await self.reply(interaction, "This lobby is closed.")
            return None
        return rec

    async def lobby_colour(
        self, interaction: discord.Interaction[Any], game_id: int, colour: str
    ) -> None:
        """A seated player's colour wish in the lobby (one colour per seat)."""
        rec = await self._open_lobby(interaction, game_id)
        if rec is None:
            return
        mine = rec.seats_of(interaction.user.id)
        if not mine:
            await self.reply(interaction, "Join the game first.")
            return
        if colour not in get_catalog(None).colours:
            await self.reply(interaction, NO_LONGER)
            return
        try:
            rec = await self.store.set_colour(game_id, mine[0], colour)
        except StorageError:
            await self.reply(interaction, f"{colour.capitalize()} is taken: choose another.")
            return
        await interaction.response.edit_message(
            view=lobby_layout(self.lobby_text(rec), game_id, colours=self.colour_choices()),
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
            wish = f" — {seat.colour}" if seat is not None and seat.colour else ""
            lines.append(f"{n + 1}. {seat.label() if seat else '(open)'}{wish}")
        lines.append(
            "Join, choose a colour if you like, add computer players, then Start "
            "(empty seats become AI players)."
        )
        return "\n".join(lines)

    async def lobby_press(
        self, interaction: discord.Interaction[Any], game_id: int, op: str
    ) -> None:
        rec = await self._open_lobby(interaction, game_id)
        if rec is None:
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
            if not self._lobby_manager(interaction, rec):
                await self.reply(interaction, LOBBY_MANAGER)
                return
            if not free:
                await self.reply(interaction, "The game is full.")
                return
            rec = await self.store.assign_seat(game_id, Seat.ai(free[0], level, name=f"AI {level}"))
        elif op == "start":
            if not self._lobby_manager(interaction, rec):
                await self.reply(interaction, LOBBY_MANAGER)
                return
            await self.start(interaction, rec)
            return
        await interaction.response.edit_message(
            view=lobby_layout(self.lobby_text(rec), game_id, colours=self.colour_choices()),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    def _lobby_manager(self, interaction: discord.Interaction[Any], rec: GameRecord) -> bool:
        """A lobby is managed (computer players added, started) by its creator or a moderator."""
        from bot.cogs.mod import interaction_is_moderator

        return interaction.user.id == rec.settings.extra.get("host") or interaction_is_moderator(
            interaction, self.settings.moderator_role_id
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
        wishes: dict[str, JsonValue] = {
            str(x.seat): x.colour for x in lobby.seats if x.colour and x.kind is SeatKind.DISCORD
        }
        if wishes:
            await self.store.set_extra(res.game_id, "colour_wishes", wishes)
            await self._colour_wishes(res)
        await self.publish(lobby.channel_id, res, interaction=interaction, force=True)

    async def _colour_wishes(self, res: Result) -> None:
        """R-SETUP-4: the colours wished in the lobby (kept in the game's settings), taken for
        those seats when the game's colour step reaches them (AI seats choose theirs in
        between); a wish no longer legal is left to the player. The steps' posts are added
        to ``res``."""
        from rules.actions import ChooseColour

        gid = res.game_id
        raw = (await self.store.get_game(gid)).settings.extra.get("colour_wishes")
        if not isinstance(raw, dict):
            return
        wishes = {int(k): str(v) for k, v in raw.items() if k.isdigit() and v}
        for _ in range(8):
            st = await self.svc.state(gid)
            ds = deciders(st)
            pend = pending_for(st, ds[0]) if ds else None
            if pend is None or pend.kind != "choose_colour":
                return
            seat = ds[0]
            info = await self.svc.info(gid)
            if info.seats[seat].ai:
                res.extend(
                    await self.svc.run_ai_turns(
                        gid,
                        until=lambda s: (
                            not any(
                                (p := pending_for(s, d)) is not None and p.kind == "choose_colour"
                                for d in deciders(s)
                            )
                        ),
                    )
                )
                continue
            wish = wishes.get(seat)
            action = ChooseColour(seat=seat, colour=wish) if wish else None
            if action is None or action not in legal_actions(st, seat):
                return
            res.extend(await self.svc.choose(gid, seat, action))

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
        action: Any = None,
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
                    res = await self.svc.choose(
                        game_id, seat, action if action is not None else acts[index]
                    )
                else:
                    res = await self.svc.act(game_id, seat, text or "")
                if res.errors:
                    msg = "\n".join(f"That did not work: {e.text()}" for e in res.errors)
                    await self.reply(interaction, msg)
                    return res
                await self._colour_wishes(res)
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
        await self.svc.run_ai_turns(gid, on_step=take, before_secret=self.auto_answer_pause)
        st = await self.svc.state(gid)
        version = (await self.store.get_game(gid)).version
        if self.pacer is not None:  # the decision clocks and deadlines of who decides now
            await self.pacer.refresh(gid)
        if len(chunks) > 1 and not chunks[-1].images:
            chunks[-2].lines += chunks.pop().lines  # e.g. the final scores after the last map
        last = chunks[-1]
        changed = force or any(c.lines for c in chunks)
        if not changed:
            return
        for c in chunks[:-1]:
            await self._post(channel_id, gid, c, st, info.seats, version, limit, final=False)
        await self._post(channel_id, gid, last, st, info.seats, version, limit, final=True)
        await self._mark_posted(gid, version)
        await self.update_status(gid, channel_id, st, info.seats)
        await self._deliver(gid, deliveries, info.seats, interaction, actor)

    async def undo(
        self, interaction: discord.Interaction[Any], gid: int, *, version: int | None = None
    ) -> None:
        """``/undo`` or the turn post's Undo button (``version``: the post's): the presser's
        newest step taken back while the engine allows it, posted publicly ("Ana (red) took
        back: ..."), the status message updated and the turn's buttons posted again at the
        new version; a refusal says why, privately."""
        from service import moderation

        seat = await self.seat_of(gid, interaction.user.id)
        if seat is None:
            await self.reply(interaction, NO_SEAT)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.lock(gid):
            rec = await self.store.get_game(gid)
            if version is not None and rec.version != version:
                await self.reply(interaction, NO_LONGER)
                return
            try:  # the engine's undo point, with a specific reason when refused
                res = await moderation.undo(self.svc, gid, seat)
            except moderation.Refused as e:
                await self.reply(interaction, str(e))
                return
            await self.publish(rec.channel_id, res, interaction=interaction, actor=seat, force=True)
        await interaction.followup.send("Taken back.", ephemeral=True)

    async def _may_undo(self, gid: int, st: GameState) -> bool:
        """Whether the one deciding now may take back their last step (the Undo button)."""
        from service import moderation

        who = deciders(st)
        if len(who) != 1 or st.phase != "play":
            return False
        try:
            await moderation.undo_check(self.svc, gid, who[0])
        except moderation.Refused:
            return False
        return True

    POSTED = "posted_version"
    """``settings.extra`` key: the newest version whose turn post reached the channel."""

    async def _mark_posted(self, gid: int, version: int) -> None:
        rec = await self.store.get_game(gid)
        posted = rec.settings.extra.get(self.POSTED)
        if not isinstance(posted, int) or posted < version:
            await self.store.set_extra(gid, self.POSTED, version)

    async def _turn_posted(self, channel_id: int, gid: int, version: int) -> bool:
        """Whether the channel's recent history holds this game's turn post at ``version``
        (its Take-my-turn button names game and version)."""
        want = f'"brz:t:{gid}:{version}"'
        try:
            recent = await self.client.http.logs_from(channel_id, 25)
        except discord.HTTPException:
            return False
        return any(want in json.dumps(m) for m in recent)

    async def recover(self) -> int:
        """After a restart: publish again every running game saved past its last turn post
        (the bot was stopped between a save and its post, or during the AI seats' turns),
        and let waiting AI seats play. A stop between the post and its mark is recognised
        in the channel's recent history (the turn post's button names game and version),
        so nothing is posted twice and no turn goes unposted. Returns how many games were
        caught up."""
        done = 0
        for rec in await self.store.list_games(
            statuses=[GameStatus.SETUP, GameStatus.RUNNING, GameStatus.FINISHED], limit=None
        ):
            posted = rec.settings.extra.get(self.POSTED)
            if not isinstance(posted, int) or posted >= rec.version:
                continue
            try:
                async with self.lock(rec.id):
                    if await self._turn_posted(rec.channel_id, rec.id, rec.version):
                        await self._mark_posted(rec.id, rec.version)  # stopped just after it
                        continue
                    res = await self.svc.catch_up(rec.id, posted)
                    await self.publish(rec.channel_id, res, force=True)
                done += 1
            except discord.HTTPException as e:  # the channel is gone: the next start retries
                log.warning("could not catch up game %s: %s", rec.id, e)
        return done

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
        deliveries.append(post)

    async def _deliver(
        self,
        gid: int,
        posts: Sequence[Post],
        seats: Sequence[SeatSpec],
        interaction: discord.Interaction[Any] | None,
        actor: int | None,
    ) -> None:
        """Private news: to the player's lasting private place (thread or DMs) if they chose
        one, else ephemerally to the player who acted, else kept for their next ``/hand``."""
        rec = await self.store.get_game(gid)
        for p in posts:
            seat = int(p.audience)
            uid = seats[seat].user_id if seat < len(seats) else None
            place = rec.settings.extra.get(f"hand:{uid}") if uid is not None else None
            if isinstance(place, dict) and str(place.get("channel", "")).isdigit():
                channel = self.client.get_partial_messageable(int(str(place["channel"])))
                try:
                    await channel.send(
                        f"Game #{gid}, only for you: {p.text}"[:1990],
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    continue
                except discord.HTTPException as e:
                    log.warning("private place of game %s seat %s failed: %s", gid, seat, e)
            if interaction is not None and seat == actor:
                await self.reply(interaction, f"Only you see this: {p.text}")
            else:
                self.inbox.setdefault((gid, seat), []).append(p.text)

    async def set_hand_place(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int, where: str
    ) -> None:
        """``/hand where:thread|dm|here``: open (or forget) the player's lasting private
        place, and show the hand there."""
        uid = interaction.user.id
        key = f"hand:{uid}"
        await interaction.response.defer(ephemeral=True, thinking=True)
        if where == "here":
            await self.store.set_extra(game_id, key, None)
            await self.show_hand(interaction, game_id, deferred=True)
            return
        rec = await self.store.get_game(game_id)
        http = self.client.http
        try:
            if where == "thread":
                data = await http.start_thread_without_message(
                    rec.channel_id,
                    name=f"Game {game_id}: {interaction.user.display_name}'s hand"[:100],
                    auto_archive_duration=10080,
                    type=12,  # a private thread
                    invitable=False,
                    reason="a player's private hand",
                )
                channel_id = int(data["id"])
                await http.add_user_to_thread(channel_id, uid)
            else:
                dm = await http.start_private_message(uid)
                channel_id = int(dm["id"])
        except discord.HTTPException as e:
            log.info("private place (%s) for game %s not opened: %s", where, game_id, e)
            await interaction.followup.send(
                "I could not open that private place (permissions, or your DMs are closed). "
                "`/hand` still answers here, only to you.",
                ephemeral=True,
            )
            return
        await self.store.set_extra(game_id, key, {"where": where, "channel": str(channel_id)})
        text, files = await self._hand_content(interaction, game_id, seat)
        place = self.client.get_partial_messageable(channel_id)
        note = (
            "Your private place for this game: your hand and private news come here as they "
            "happen. (Members with Manage Threads can read private threads; `/hand` is always "
            "only for you.)"
            if where == "thread"
            else "Your private news of this game comes here, in our DMs, as it happens."
        )
        await place.send(
            (note + "\n" + text)[:1990],
            files=files,
            allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
        )
        where_text = f"<#{channel_id}>" if where == "thread" else "your DMs"
        await interaction.followup.send(
            f"From now on your private news goes to {where_text}.", ephemeral=True
        )

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
        if final and st.phase == "ended":
            used = sum(len(f.fp.getvalue()) for f in files if isinstance(f.fp, io.BytesIO))
            gif = await self.timeline(gid, limit - used)
            if gif is not None:
                files.append(discord.File(io.BytesIO(gif), filename="timeline.gif"))
        footer, mentions, buttons = "", discord.AllowedMentions.none(), []
        if final:
            footer, users, kinds = self._next_text(st, seats, gid)
            if users:
                mentions = discord.AllowedMentions(
                    users=[discord.Object(u) for u in users], everyone=False, roles=False
                )
            if kinds:
                buttons = turn_buttons(gid, version, kinds, undo=await self._may_undo(gid, st))
        view = turn_layout(
            fit_lines(chunk.lines, 3400), [f.filename for f in files], footer, buttons
        )
        channel = self.client.get_partial_messageable(channel_id)
        await channel.send(view=view, files=files, allowed_mentions=mentions)

    def status_text(self, game_id: int, st: GameState, seats: Sequence[SeatSpec]) -> str:
        """The status message: scenario, era, round, whose turn and the deadline."""
        cat = get_catalog(st.data_pack)
        scen = cat.maps[st.map].name if st.map in cat.maps else st.map
        lines = [f"### Game #{game_id}: {scen}"]
        if st.phase == "ended":
            lines.append("The game is over: final scores and the timeline are posted below.")
            return "\n".join(lines)
        where = "Setup" if st.phase == "setup" else f"Era {st.era} · round {st.round}"
        lines.append(where)
        for d in self.svc.decisions(st, seats, choices=False):
            spec = seats[d.seat] if d.seat < len(seats) else None
            who = f"<@{spec.user_id}>" if spec and spec.user_id and not d.ai else d.who
            what = "to play" if d.kind == "turn" else d.kind.replace("_", " ")
            due = "" if d.ai else " — " + self.deadline_text(game_id, d.seat, "deadline")
            lines.append(f"Waiting for {who} ({what}){due}")
        lines += self.status_notes.get(game_id, [])
        return "\n".join(lines)

    def deadline_text(self, game_id: int | None, seat: int, word: str) -> str:
        """``deadline <t:…:f> (<t:…:R>)``: the seat's deadline kept by the pacer, else the
        default length from now; "the game is paused" while it is."""
        key = (game_id, seat) if game_id is not None else None
        if key is not None and key in self.due:
            at = self.due[key]
            if at is None:
                return "the game is paused"
        else:
            at = int(time.time()) + self.settings.turn_deadline_hours * 3600
        return f"{word} <t:{at}:f> (<t:{at}:R>)"

    async def update_status(
        self, game_id: int, channel_id: int, st: GameState, seats: Sequence[SeatSpec]
    ) -> None:
        """Edit the game's one status message in place (PATCH); post it (and try to pin it)
        the first time or if it was deleted. Its id is kept in the game's settings.extra."""
        view = status_layout(self.status_text(game_id, st, seats))
        rec = await self.store.get_game(game_id)
        mid = rec.settings.extra.get("status_message")
        channel = self.client.get_partial_messageable(channel_id)
        none = discord.AllowedMentions.none()
        if isinstance(mid, str) and mid.isdigit():
            try:
                await channel.get_partial_message(int(mid)).edit(view=view, allowed_mentions=none)
                return
            except discord.NotFound:
                pass  # deleted: post a new one
            except discord.HTTPException as e:
                log.warning("status message of game %s not edited: %s", game_id, e)
                return
        msg = await channel.send(view=view, allowed_mentions=none)
        await self.store.set_extra(game_id, "status_message", str(msg.id))
        try:
            await msg.pin(reason="the game's status")
        except discord.HTTPException:
            log.info("status message of game %s not pinned (no permission)", game_id)

    async def timeline(self, game_id: int, budget: int) -> bytes | None:
        """The game's timeline animation (the public map after every turn, replayed from the
        log in a worker thread), or None if it would not fit in ``budget`` bytes."""
        from bot.render import render_timeline

        entries = await self.store.get_log(game_id)
        try:
            frames = await asyncio.to_thread(timeline_frames, entries)
            gif = await asyncio.to_thread(render_timeline, frames) if frames else None
        except Exception:  # a picture must not break the end of a game
            log.exception("timeline of game %s not drawn", game_id)
            return None
        if gif is None or len(gif) > budget:
            log.info("timeline of game %s left out (upload limit)", game_id)
            return None
        return gif

    def _next_text(
        self, st: GameState, seats: Sequence[SeatSpec], game_id: int | None = None
    ) -> tuple[str, list[int], list[str]]:
        """Who decides now (a ping for the humans), the deadline, and the decision kinds."""
        if st.phase == "ended":
            return "**The game is over.** Results are saved: `/stats`.", [], []
        parts, users, kinds = [], [], []
        for d in self.svc.decisions(st, seats, choices=False):
            spec = seats[d.seat] if d.seat < len(seats) else None
            if spec is not None and spec.user_id is not None and not d.ai:
                users.append(spec.user_id)
                kinds.append(d.kind)
                what = (
                    "your turn"
                    if d.kind == "turn"
                    else f"please decide ({d.kind.replace('_', ' ')})"
                )
                parts.append(
                    f"<@{spec.user_id}>: {what} — {self.deadline_text(game_id, d.seat, 'by')}"
                )
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
            cost = self._cost_text(st, acts[i])
            text = f"**{texts[i]}**\n{cost}Confirm?"
            await interaction.response.edit_message(
                content=text, view=confirm_view(game_id, version, i, payable=bool(cost))
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
        return f"Costs {cost.text}. Default payment: {paid}. (Another: *Change payment*.)\n"

    def _paid_action(
        self, st: GameState, seat: int, index: int, path: Sequence[int]
    ) -> tuple[Any, Any] | None:
        """Legal action ``index`` of ``seat`` and the payment step the option numbers
        ``path`` lead to (None if they no longer make sense)."""
        from rules import payment_step
        from rules.errors import RulesError

        acts = legal_actions(st, seat)
        if not 0 <= index < len(acts):
            return None
        action = acts[index]
        chosen: list[Any] = []
        try:
            step = payment_step(st, action, chosen)
            for k in path:
                if step.complete or not 0 <= k < len(step.options):
                    return None
                chosen.append(step.options[k].item)
                step = payment_step(st, action, chosen)
        except RulesError:
            return None
        return action, step

    async def pay_step(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        index: int,
        path: Sequence[int],
    ) -> None:
        """ "Change payment": the next token to pay and the sources that may pay it (from
        ``rules.payment_step``), one menu per token, until the payment is complete."""
        got = await self._decider(interaction, game_id, version)
        if got is None:
            return
        seat, st = got
        found = self._paid_action(st, seat, index, path)
        if found is None:
            await self.reply(interaction, NO_LONGER)
            return
        action, step = found
        head = f"**{format_action(st, action)}** — {step.cost.text}"
        paid = ", ".join(f"{p.what} ({p.source})" for p in step.chosen)
        lines = [head, f"Paid so far: {paid}" if paid else "Nothing paid yet."]
        if step.complete:
            lines.append("Confirm with this payment?")
        else:
            lines.append(step.prompt)
            if len(step.options) > 25:
                lines.append("(More sources than a menu shows: type it in `/play … pay …`.)")
        await interaction.response.edit_message(
            content="\n".join(lines)[:1990],
            view=pay_view(
                game_id,
                version,
                index,
                path,
                [o.label for o in step.options],
                complete=step.complete,
            ),
        )

    async def confirm(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        index: int,
        *,
        path: Sequence[int] | None = None,
    ) -> None:
        got = await self._decider(interaction, game_id, version)
        if got is None:
            return
        seat, st = got
        action = None
        if path is not None:
            found = self._paid_action(st, seat, index, path)
            if found is None or not found[1].complete:
                await self.reply(interaction, NO_LONGER)
                return
            action = found[0].replace(payment=found[1].payment)
        await interaction.response.defer()
        res = await self.act(
            interaction, game_id, seat, index=index, version=version, action=action
        )
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

    async def _hand_content(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int
    ) -> tuple[str, list[discord.File]]:
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
        return "\n".join(texts), files

    async def show_hand(
        self, interaction: discord.Interaction[Any], game_id: int, *, deferred: bool = False
    ) -> None:
        seat = await self.seat_of(game_id, interaction.user.id)
        if seat is None:
            await self.reply(interaction, NO_SEAT)
            return
        if not deferred:
            await interaction.response.defer(ephemeral=True, thinking=True)
        text, files = await self._hand_content(interaction, game_id, seat)
        await interaction.followup.send(text[:1990], files=files, ephemeral=True)
