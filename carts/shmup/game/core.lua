-- Shared helpers: the game state table, bullet types, trig tables, the sprite allocator,
-- sound with a rate limit and shadowed overlay text. Every other module requires this one.

local art = require("game.art")

local C = {}

-- Set to true while authoring the test movie: extra log lines with frame numbers.
C.DEBUG = false
C.GOD = false
-- A new high score is written to save RAM at once.
function C.record_score()
  if C.G.score > C.G.hiscore then
    C.G.hiscore = C.G.score
    sd_set(0, C.G.hiscore)
  end
end

function C.dbg(...)
  if C.DEBUG then log("dbg", frame(), ...) end
end

-- The game state every module reads and writes. The high score is kept in save RAM slot 0
-- (cart.toml's save_id); 20000 until someone beats it.
C.G = {
  score = 0, hiscore = math.max(20000, sd_get(0)), lives = 3, bombs = 3, graze = 0,
  stress = false, stress_t = 0, stress_level = 0,
  boss = nil,       -- the boss or mid-boss enemy while it is on screen
}

-- Overlay colours: palette 0 (see cart.toml).
C.INK, C.WHITE, C.GOLD, C.RED, C.CYAN, C.GREY, C.GREEN, C.ORANGE, C.PANEL, C.VIOLET =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10

-- Sprite palettes (one per sheet, see cart.toml) and the white hit flash.
C.PAL_PLAYER, C.PAL_ENEMY, C.PAL_BOSS, C.PAL_FX, C.PAL_FLASH = 3, 4, 5, 7, 8

-- Bullet types (bu_type numbers). Small round bullets hit with a half size of 2 px, long
-- ones are thinner across, big ones 4.5 px.
C.T = {
  pink = 0, blue = 1, amber = 2, green = 3, violet = 4,
  lpink = 5, lblue = 6, lamber = 7,
  bigred = 8, bigblue = 9, bigviolet = 10, bigpink = 11,
  shot = 12, shot_focus = 13,
}

function C.define_bullets()
  local T, B = C.T, 6 -- palette 6 holds the bullet colours
  bu_type(T.pink, art.b_pink, 1, B, 2)
  bu_type(T.blue, art.b_blue, 1, B, 2)
  bu_type(T.amber, art.b_amber, 1, B, 2)
  bu_type(T.green, art.b_green, 1, B, 2)
  bu_type(T.violet, art.b_violet, 1, B, 2)
  bu_type(T.lpink, art.l_pink, 1, B, 1.5, 3)
  bu_type(T.lblue, art.l_blue, 1, B, 1.5, 3)
  bu_type(T.lamber, art.l_amber, 1, B, 1.5, 3)
  bu_type(T.bigred, art.big_red, 2, B, 4.5)
  bu_type(T.bigblue, art.big_blue, 2, B, 4.5)
  bu_type(T.bigviolet, art.big_violet, 2, B, 4.5)
  bu_type(T.bigpink, art.big_pink, 2, B, 4.5)
  -- Player shots: drawn from the player sheet with its palette; a tall hit box.
  bu_type(T.shot, art.shot, 1, C.PAL_PLAYER, 3, 6)
  bu_type(T.shot_focus, art.shot_focus, 1, C.PAL_PLAYER, 3, 6)
  -- Bullets fly 40 px past the screen edge before the unit culls them.
  bu_layer(2, 40)
end

-- Sine and cosine of the 256-step angle, read once from the bullet unit's exact tables
-- (math.sin would depend on the host's C library; these are the same everywhere).
C.SIN, C.COS = {}, {}
function C.build_trig()
  for a = 0, 255 do C.SIN[a], C.COS[a] = bu_sin(a) end
end

function C.clamp(v, lo, hi)
  if v < lo then return lo elseif v > hi then return hi end
  return v
end

-- Sprite allocator. OAM is split into ranges; each frame the draw code puts sprites in
-- order and `finish` hides whatever a range used last frame but not this one. Lower OAM
-- numbers are drawn in front, so the ranges also give the stacking order.
-- Each range also has a default priority: enemies and explosions use 3, in front of the
-- bullet layer (priority 2), so bullets come out from under the hull that fires them;
-- the ship and the items stay at 2, under the bullets.
local ranges = {
  { name = "player", first = 0, last = 3, prio = 2 },     -- ship, flame, focus marker
  { name = "hud", first = 4, last = 15, prio = 3 },       -- life and bomb icons
  { name = "fx", first = 16, last = 79, prio = 3 },       -- explosions, sparks: over the enemies
  { name = "enemy", first = 80, last = 159, prio = 3 },   -- enemies, bosses, the title logo
  { name = "item", first = 160, last = 255, prio = 2 },   -- score items
}
local by_name = {}
for _, r in ipairs(ranges) do
  r.cur, r.prev = r.first, r.first
  by_name[r.name] = r
end

function C.sprites_begin()
  for i = 1, #ranges do ranges[i].cur = ranges[i].first end
end

-- Puts a sprite in range `name` (priority defaults to the range's); silently drops it
-- when the range is full.
function C.put(name, tile, x, y, size, palette, flags, priority)
  local r = by_name[name]
  local i = r.cur
  if i > r.last then return end
  spr(i, x, y, tile, size, palette, flags, priority or r.prio)
  r.cur = i + 1
end

function C.sprites_finish()
  for k = 1, #ranges do
    local r = ranges[k]
    for i = r.cur, r.prev - 1 do spr_hide(i) end
    r.prev = r.cur
  end
end

-- Sound effects, each at most once every `gap` frames (shots and grazes come in floods).
local last_played = {}
function C.sound(name, gap)
  local now = frame()
  local last = last_played[name]
  if last and now - last < (gap or 0) then return end
  last_played[name] = now
  sfx(name)
end

-- Overlay text with a one-pixel shadow so it reads over any background.
function C.text(s, x, y, color)
  print(s, x + 1, y + 1, C.INK)
  return print(s, x, y, color)
end

-- Text centred on the 256 px screen.
function C.ctext(s, y, color)
  return C.text(s, 128 - #s * 4, y, color)
end

-- Zero-padded score text.
function C.digits(n, width)
  local s = tostring(n // 1)
  return string.rep("0", width - #s) .. s
end

return C
