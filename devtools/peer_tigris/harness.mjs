// Replays our Tigris & Euphrates traces in the peer engine (sillle14/cubenations, boardgame.io)
// and prints the peer's state, decision and legal moves after each step, in the neutral form of
// devtools/peer_tigris/trace.py.
//
//   node harness.mjs PEER_DIR < games.json > peer.jsonl
//
// PEER_DIR holds the peer compiled to CommonJS (build/Game.js, build/moves/..., build/static/...)
// and node_modules/boardgame.io (see devtools/peer_tigris/compare.py --prepare). The peer's code
// is loaded from there at run time; none of it is part of this repository.
//
// Input: {"mode": "free" | "synced", "games": [trace, ...]}. "free": the peer is set up once
// from our initial state (board, hands, the bag in our draw order) and then only receives the
// moves. "synced": before every action of the active player the peer's state is loaded from
// ours, so each action is compared on its own (no carried-over divergence).
// Output: one JSON line per game: {seed, players, static, initial, steps: [{state, decision,
// legal, notes}]}.

import { createRequire } from 'node:module'
import path from 'node:path'
import fs from 'node:fs'

const peerDir = path.resolve(process.argv[2] || '.')
const require = createRequire(path.join(peerDir, 'package.json'))
const log = (...a) => process.stderr.write(a.map(String).join(' ') + '\n')
console.log = log // boardgame.io logs to the console: keep stdout for JSON
console.error = log
console.warn = log

const { CubeNations } = require(path.join(peerDir, 'build/Game.js'))
const { canPlaceTile } = require(path.join(peerDir, 'build/moves/placeTile.js'))
const { canPlaceLeader } = require(path.join(peerDir, 'build/moves/placeLeader.js'))
const { canPlaceCatastrophe } = require(path.join(peerDir, 'build/moves/placeCatastrophe.js'))
const { canTakeTreasure } = require(path.join(peerDir, 'build/moves/takeTreasure.js'))
const BOARDDATA = require(path.join(peerDir, 'build/static/board.js'))
const { TILE_COUNTS } = require(path.join(peerDir, 'build/static/tile.js'))
const { InitializeGame, CreateGameReducer } = require('boardgame.io/internal')

const W = 16
const H = 11
const OUR_COLOURS = ['black', 'red', 'blue', 'green']
const TILE_CHARS = 'krbg'
const label = (x, y) => String.fromCharCode(65 + x) + (y + 1)
const coord = (lab) => ({ x: lab.charCodeAt(0) - 65, y: parseInt(lab.slice(1), 10) - 1 })
const PEER_MONUMENTS = [] // peer order: pairs of [blue, green, red, black]
{
  const all = ['blue', 'green', 'red', 'black']
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) PEER_MONUMENTS.push([all[i], all[j]])
}
const monumentIndex = (id) => {
  const [a, b] = id.split('-')
  return PEER_MONUMENTS.findIndex((m) => m.includes(a) && m.includes(b))
}
const monumentId = (colors) => {
  // our ids: first colour in our order black, red, blue, green ... as in components.toml
  const order = OUR_IDS.find((id) => { const [a, b] = id.split('-'); return colors.includes(a) && colors.includes(b) })
  return order
}
let OUR_IDS = []

// ---------------------------------------------------------------------------- our -> peer

function countsToHand(counts) {
  const hand = []
  counts.forEach((n, c) => { for (let i = 0; i < n; i++) hand.push({ type: 'tile', color: OUR_COLOURS[c] }) })
  while (hand.length < 6) hand.push(null)
  return hand
}

// The peer's bag pops from the end: the tiles our engine will draw, in the peer's order (a
// refill goes through the players 0, 1, ...; a swap draws for its player), then the rest.
function bagFor(game, fromStep) {
  const pops = []
  for (let i = fromStep; i < game.steps.length; i++) {
    for (const batch of game.steps[i].draws) {
      const seats = Object.keys(batch.tiles).map(Number).sort((a, b) => a - b)
      for (const s of seats) for (const c of batch.tiles[String(s)]) pops.push(c)
    }
  }
  const rest = []
  for (const [c, n] of Object.entries(game.final_bag)) for (let i = 0; i < n; i++) rest.push(c)
  const bag = rest.concat(pops.reverse())
  return bag.map((c) => ({ type: 'tile', color: c }))
}

function importG(game, snap, fromStep) {
  const board = []
  const treasures = new Set(snap.treasures)
  for (let x = 0; x < W; x++) {
    const col = []
    for (let y = 0; y < H; y++) {
      const sp = { river: BOARDDATA.RIVERS[x][y], treasure: treasures.has(label(x, y)), border: BOARDDATA.BORDERED[x][y] }
      col.push(sp)
    }
    board.push(col)
  }
  const players = {}
  for (let p = 0; p < game.players; p++) {
    const pl = snap.players[p]
    players[String(p)] = {
      leaders: { black: null, blue: null, green: null, red: null },
      score: { black: pl.score[0], red: pl.score[1], blue: pl.score[2], green: pl.score[3], treasure: pl.treasures },
      hand: countsToHand(pl.hand),
      catastrophes: pl.catastrophes,
      id: String(p),
      actions: p === snap.active ? snap.actions_left : 2,
    }
  }
  for (let i = 0; i < W * H; i++) {
    const ch = snap.board[i]
    const x = i % W
    const y = Math.floor(i / W)
    const sp = board[x][y]
    if (ch === '.') continue
    if (TILE_CHARS.includes(ch)) sp.occupant = { type: 'tile', color: OUR_COLOURS[TILE_CHARS.indexOf(ch)] }
    else if (ch === 'x') sp.occupant = { type: 'catastrophe' }
    else if (ch === 'm') continue // filled from the monuments below
    else {
      const v = ch.charCodeAt(0) - 65
      const seat = v >> 2
      const colour = OUR_COLOURS[v & 3]
      sp.occupant = { type: 'leader', color: colour, playerID: String(seat), inConflict: false }
      players[String(seat)].leaders[colour] = { x, y }
    }
  }
  const monuments = PEER_MONUMENTS.map((colors) => ({ type: 'monument', colors: [...colors], position: null }))
  for (const [id, tl] of Object.entries(snap.monuments)) {
    const m = monuments[monumentIndex(id)]
    const p = coord(tl)
    m.position = p
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) board[p.x + dx][p.y + dy].occupant = { ...m, colors: [...m.colors], position: { ...p } }
  }
  return {
    players,
    board,
    tileBag: bagFor(game, fromStep),
    monuments,
    conflict: null,
    playerOrder: Array.from({ length: game.players }, (_, i) => String(i)),
    unificationTile: null,
    discardCount: 0,
    treasureCount: snap.treasures.length,
  }
}

// ---------------------------------------------------------------------------- peer -> ours

function peerSnapshot(state, game) {
  const G = state.G
  let board = ''
  const monuments = {}
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = G.board[x][y].occupant
      if (!o) board += '.'
      else if (o.type === 'tile') board += TILE_CHARS[OUR_COLOURS.indexOf(o.color)]
      else if (o.type === 'catastrophe') board += 'x'
      else if (o.type === 'monument') board += 'm'
      else if (o.type === 'leader') board += String.fromCharCode(65 + 4 * Number(o.playerID) + OUR_COLOURS.indexOf(o.color))
      else board += '?'
    }
  }
  for (const m of G.monuments) if (m.position) monuments[monumentId(m.colors)] = label(m.position.x, m.position.y)
  const treasures = []
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (G.board[x][y].treasure) treasures.push(label(x, y))
  treasures.sort(labelOrder)
  const players = []
  for (let p = 0; p < game.players; p++) {
    const pl = G.players[String(p)]
    const hand = [0, 0, 0, 0]
    for (const t of pl.hand) if (t) hand[OUR_COLOURS.indexOf(t.color)] += 1
    players.push({
      hand,
      score: [pl.score.black, pl.score.red, pl.score.blue, pl.score.green],
      treasures: pl.score.treasure,
      catastrophes: pl.catastrophes,
    })
  }
  const sorted = Object.fromEntries(Object.entries(monuments).sort())
  const snap = {
    board,
    treasures,
    monuments: sorted,
    players,
    active: Number(state.ctx.currentPlayer),
    actions_left: G.players[state.ctx.currentPlayer].actions,
    bag: G.tileBag.length,
    over: !!state.ctx.gameover,
  }
  if (state.ctx.gameover) snap.winners = (state.ctx.gameover.winnerIDs || []).map(Number).sort()
  return snap
}

function labelOrder(a, b) {
  const A = coord(a)
  const B = coord(b)
  return (A.y * W + A.x) - (B.y * W + B.x)
}

function peerDecision(state) {
  if (state.ctx.gameover) return { kind: 'over' }
  const ap = state.ctx.activePlayers
  if (ap && Object.keys(ap).length) {
    const seats = Object.keys(ap).sort()
    const seat = seats[0]
    const kind = { conflict: 'support', resolveConflict: 'resolve', chooseWar: 'war', monument: 'monument', treasure: 'treasure', confirm: 'confirm' }[ap[seat]] || ap[seat]
    const d = { kind, seat: Number(seat) }
    if (seats.length > 1) d.others = seats.slice(1).map((s) => [Number(s), ap[s]])
    return d
  }
  return { kind: 'play', seat: Number(state.ctx.currentPlayer) }
}

function nextToRed(board, x, y) {
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const o = board[x + dx] && board[x + dx][y + dy] && board[x + dx][y + dy].occupant
    if (o && o.type === 'tile' && o.color === 'red') return true
  }
  return false
}

function peerLegal(state) {
  const G = state.G
  const d = peerDecision(state)
  const out = new Set()
  if (d.kind === 'play') {
    const pid = state.ctx.currentPlayer
    const pl = G.players[pid]
    const colours = new Set(pl.hand.filter((t) => t).map((t) => t.color))
    for (let x = 0; x < W; x++) {
      for (let y = 0; y < H; y++) {
        const dest = { x, y }
        const sp = G.board[x][y]
        // (the peer's predicates start with these checks; skipping them early only saves time)
        if (!sp.occupant) {
          for (const c of colours) if (sp.river === (c === 'blue') && canPlaceTile(dest, c, G.board)) out.add(`tile ${c} ${label(x, y)}`)
          if (!sp.river && nextToRed(G.board, x, y)) {
            for (const c of OUR_COLOURS) if (canPlaceLeader(pl.leaders[c], dest, G.board)) out.add(`leader ${c} ${label(x, y)}`)
          }
        }
        // the move does not check the count; the UI offers only the catastrophes in front of the player
        if (pl.catastrophes > 0 && canPlaceCatastrophe(dest, G.board)) out.add(`catastrophe ${label(x, y)}`)
      }
    }
    for (const c of OUR_COLOURS) if (canPlaceLeader(pl.leaders[c], null)) out.add(`withdraw ${c}`)
    if (pl.hand.some((t) => t)) out.add('swap')
    out.add('pass')
  } else if (d.kind === 'support') {
    const colour = G.conflict.color
    const n = G.players[String(d.seat)].hand.filter((t) => t && t.color === colour).length
    for (let k = 0; k <= n; k++) out.add(`support ${k}`)
  } else if (d.kind === 'war') {
    for (const c of G.possibleWars || []) out.add(`war ${c}`)
  } else if (d.kind === 'monument') {
    for (const p of G.possibleMonuments || []) {
      G.monuments.forEach((m) => {
        if (!m.position && m.colors.includes(G.availableMonumentColor)) out.add(`monument ${monumentId(m.colors)} ${label(p.x, p.y)}`)
      })
    }
    out.add('pass')
  } else if (d.kind === 'treasure') {
    for (const c of G.players[String(d.seat)].availableTreasure || []) {
      if (canTakeTreasure(G, c, String(d.seat))) out.add(`treasure ${label(c.x, c.y)}`)
    }
  }
  return [...out].sort()
}

// ------------------------------------------------------------------------------- the replay

function makeRunner(game) {
  const reducer = CreateGameReducer({ game: CubeNations, isClient: false })
  let setupG = null
  const wrapped = { ...CubeNations, setup: () => setupG }
  return {
    init(G) {
      setupG = G
      return InitializeGame({ game: wrapped, numPlayers: game.players })
    },
    move(state, name, args, playerID, notes) {
      const before = state._stateID
      const next = reducer(state, { type: 'MAKE_MOVE', payload: { type: name, args, playerID: String(playerID) } })
      if (next._stateID === before) notes.push(`peer refused ${name} ${JSON.stringify(args)} by ${playerID}`)
      return next
    },
  }
}

function handIndices(G, seat, colour, n) {
  const out = []
  G.players[String(seat)].hand.forEach((t, i) => { if (t && t.color === colour && out.length < n) out.push(i) })
  return out
}

function runGame(game, mode) {
  const runner = makeRunner(game)
  let state = runner.init(importG(game, game.initial, 0))
  const result = { seed: game.seed, players: game.players, mode, steps: [] }
  result.initial = { state: peerSnapshot(state, game), decision: peerDecision(state), legal: peerLegal(state) }
  const queued = {} // seat -> treasure squares our engine took before the peer's treasure stage
  let ourDecision = { kind: 'play', seat: 0 }
  let ourState = game.initial

  const settleTreasure = (notes, allowAuto) => {
    // The peer takes treasures at the end of the turn (its treasure stage): use the choices our
    // engine made earlier in the turn, else the first the peer allows.
    for (let guard = 0; guard < 20; guard++) {
      const d = peerDecision(state)
      if (d.kind !== 'treasure') return
      const q = queued[d.seat] || []
      const legal = peerLegal(state)
      let pick = null
      while (q.length && !pick) {
        const t = q.shift()
        if (legal.includes(`treasure ${t}`)) pick = t
      }
      if (!pick) {
        // a treasure our engine took on its own (a corner taken first, T-TREASURE-3)
        const gone = legal.map((m) => m.split(' ')[1]).find((sq) => !ourState.treasures.includes(sq))
        if (gone) pick = gone
      }
      if (!pick) {
        if (!allowAuto) return
        if (!legal.length) { notes.push('peer treasure stage with no legal choice'); return }
        pick = legal[0].split(' ')[1]
        notes.push(`peer took treasure ${pick} on its own`)
      } else notes.push(`peer took treasure ${pick} at the end of the turn`)
      state = runner.move(state, 'takeTreasure', [coord(pick)], d.seat, notes)
    }
  }

  game.steps.forEach((step, i) => {
    const notes = []
    const a = step.action
    if (mode === 'synced' && ourDecision.kind === 'play' && !state.ctx.gameover) {
      const G = importG(game, ourState, i)
      state = {
        ...state,
        G,
        ctx: { ...state.ctx, currentPlayer: String(ourState.active), playOrderPos: ourState.active, playOrder: G.playerOrder, activePlayers: null, _activePlayersMinMoves: null, _activePlayersMaxMoves: null, _activePlayersNumMoves: {}, _prevActivePlayers: [], _nextActivePlayers: null, gameover: undefined },
      }
      for (const k of Object.keys(queued)) delete queued[k]
    }
    if (a.kind !== 'treasure') settleTreasure(notes, true)
    const seat = a.seat
    const G = state.G
    switch (a.kind) {
      case 'tile': {
        const idx = handIndices(G, seat, a.colour, 1)[0]
        state = runner.move(state, 'placeTile', [idx, coord(a.square)], seat, notes)
        break
      }
      case 'leader':
        state = runner.move(state, 'placeLeader', [a.colour, coord(a.square)], seat, notes)
        break
      case 'withdraw':
        state = runner.move(state, 'placeLeader', [a.colour, null], seat, notes)
        break
      case 'catastrophe':
        state = runner.move(state, 'placeCatastrophe', [coord(a.square)], seat, notes)
        break
      case 'swap': {
        let idxs = []
        for (const [c, n] of Object.entries(a.tiles)) idxs = idxs.concat(handIndices(G, seat, c, n))
        state = runner.move(state, 'discardTiles', [idxs], seat, notes)
        break
      }
      case 'pass': {
        if (ourDecision.kind === 'monument') {
          state = runner.move(state, 'pass', [], seat, notes)
        } else {
          const n = step.pass_actions || 1
          for (let k = 0; k < n; k++) state = runner.move(state, 'pass', [], seat, notes)
        }
        break
      }
      case 'support': {
        const colour = G.conflict ? G.conflict.color : 'red'
        state = runner.move(state, 'commitToConflict', [handIndices(G, seat, colour, a.amount)], seat, notes)
        const d = peerDecision(state)
        if (d.kind === 'resolve') state = runner.move(state, 'resolveConflict', [], d.seat, notes)
        break
      }
      case 'war_order':
        state = runner.move(state, 'chooseWar', [a.colour], seat, notes)
        break
      case 'monument': {
        state = runner.move(state, 'placeMonument', [coord(a.square), monumentIndex(a.monument)], seat, notes)
        break
      }
      case 'treasure': {
        const d = peerDecision(state)
        if (d.kind === 'treasure' && d.seat === seat) {
          // first the treasures our engine took without a choice (corners, T-TREASURE-3)
          for (let guard = 0; guard < 10; guard++) {
            const legal = peerLegal(state).map((m) => m.split(' ')[1])
            if (legal.includes(a.square) || peerDecision(state).kind !== 'treasure') break
            const gone = legal.find((sq) => !step.state.treasures.includes(sq))
            if (!gone) break
            state = runner.move(state, 'takeTreasure', [coord(gone)], seat, notes)
          }
          if (peerDecision(state).kind === 'treasure') state = runner.move(state, 'takeTreasure', [coord(a.square)], seat, notes)
        } else {
          (queued[seat] = queued[seat] || []).push(a.square)
          notes.push('treasure deferred: the peer collects at the end of the turn')
        }
        break
      }
      default:
        notes.push(`unknown action ${a.kind}`)
    }
    // The peer's treasure stage at the end of the turn: settle with choices already made.
    ourDecision = step.decision
    ourState = step.state
    settleTreasure(notes, false)
    result.steps.push({ state: peerSnapshot(state, game), decision: peerDecision(state), legal: peerLegal(state), notes })
  })
  return result
}

// --------------------------------------------------------------------------- static checks

function staticChecks() {
  const river = []
  const treasures = []
  const corners = []
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (BOARDDATA.RIVERS[x][y]) river.push(label(x, y))
      if (BOARDDATA.TREASURES[x][y]) treasures.push(label(x, y))
      if (BOARDDATA.BORDERED[x][y]) corners.push(label(x, y))
    }
  }
  // The peer's own set-up, run once: how many tiles it puts in the bag and on the board.
  const st = InitializeGame({ game: CubeNations, numPlayers: 2 })
  const inBag = {}
  for (const t of st.G.tileBag) inBag[t.color] = (inBag[t.color] || 0) + 1
  for (const p of Object.values(st.G.players)) for (const t of p.hand) if (t) inBag[t.color] = (inBag[t.color] || 0) + 1
  return { river, treasures, corners, tile_counts: TILE_COUNTS, bag_and_hands_after_setup: inBag, monuments: PEER_MONUMENTS.map((m) => m.join('-')) }
}

const input = JSON.parse(fs.readFileSync(0, 'utf8'))
OUR_IDS = input.monument_ids
process.stdout.write(JSON.stringify({ static: staticChecks() }) + '\n')
for (const game of input.games) {
  let res
  try {
    res = runGame(game, input.mode || 'free')
  } catch (e) {
    res = { seed: game.seed, players: game.players, error: String(e && e.stack ? e.stack : e) }
  }
  process.stdout.write(JSON.stringify(res) + '\n')
}
