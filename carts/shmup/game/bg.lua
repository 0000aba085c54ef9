-- Backgrounds: three layers scrolling at three speeds, plus a little sideways parallax
-- that follows the ship.
--   layer 3, priority 0: the star field (map "space", layer "stars"), slowest;
--   layer 2, priority 0: banded nebula clouds (map "space", layer "nebula"), with a static
--            per-line scroll table that makes the clouds ripple as they pass;
--   layer 1, priority 1: a space station streamed row by row from Lua, fastest.
-- Sprites and bullets use priorities 2 and 3, so they are in front of all three.

local C = require("game.core")
local art = require("game.art")

local BG = {}

local STARS, NEBULA, STATION = 3, 2, 1
local COLS, ROWS = 20, 32          -- station layer: 20 x 32 cells of 16 px (320 x 512 px)
local SPEED_FAR, SPEED_MID, SPEED_NEAR = 0.3, 0.6, 1.25

-- Station metatiles (16 px) in tools/make_art.py order: 0-15 hull by neighbour mask
-- (1 up, 2 right, 4 down, 8 left), 16-22 decorated interiors, 23-25 girder pieces.
local function metatile(slot)
  return art.station + (slot // 8) * 32 + (slot % 8) * 2
end
local GIRDER_MID, GIRDER_LEFT, GIRDER_RIGHT = 23, 24, 25
-- A 16 px cell shows the 2 x 2 block from its tile, so an empty cell needs a fully
-- transparent block: the sheet's last slot (tile 0 alone would show tiles 1, 16 and 17).
local EMPTY = 31

local far_y, mid_y, near_y = 0, 0, 0
local hull = {}      -- hull[row][col]: true for hull cells, by absolute row (smaller = higher)
local girders = {}   -- girders[row]: true when a truss spans the gap on that row
local fill_top       -- the highest (smallest) row generated in `hull`
local gen_row        -- the highest row written into the layer
local wl, wr, tl, tr, seg = 2, 2, 2, 2, 0
BG.open = false      -- true: the walls pull back (the boss fight happens in open space)

-- Fills eight more rows above `fill_top`: walls that step in and out, now and then a hull
-- island in the middle or a girder across.
local function gen_chunk()
  local top = fill_top
  for _ = 1, 8 do
    local r = fill_top - 1
    fill_top = r
    seg = seg - 1
    if seg <= 0 then
      seg = rndi(3, 7)
      if BG.open then tl, tr = 0, 0 else tl, tr = rndi(0, 3), rndi(0, 3) end
    end
    if wl < tl then wl = wl + 1 elseif wl > tl then wl = wl - 1 end
    if wr < tr then wr = wr + 1 elseif wr > tr then wr = wr - 1 end
    local row = {}
    for c = 0, COLS - 1 do
      row[c] = c < wl or (c >= 16 - wr and c < 16) or (c >= 16 and not BG.open)
    end
    hull[r] = row
  end
  if BG.open then return end
  local gap_from, gap_to = wl + 1, 14 - wr
  if rnd() < 0.45 and gap_to - gap_from >= 5 then
    -- An island of 2 x 2 or 3 x 2 cells, away from the walls.
    local w = rndi(2, 3)
    local c0 = rndi(gap_from + 1, gap_to - w)
    local r0 = top - rndi(2, 6)
    for r = r0, r0 + 1 do
      for c = c0, c0 + w - 1 do hull[r][c] = true end
    end
  elseif rnd() < 0.35 then
    girders[top - rndi(1, 7)] = true
  end
end

local function fill_at(r)
  while fill_top > r do gen_chunk() end
  return hull[r]
end

-- Writes absolute row r into the layer (row r % ROWS), choosing each hull cell's tile
-- from its four neighbours.
local function write_row(r)
  local up, cur, down = fill_at(r - 1), fill_at(r), fill_at(r + 1)
  local lr = r % ROWS
  local g = girders[r]
  local g_from, g_to
  if g then
    -- The truss spans the open cells between the walls.
    g_from = 0
    while g_from < 16 and cur[g_from] do g_from = g_from + 1 end
    g_to = g_from
    while g_to + 1 < 16 and not cur[g_to + 1] do g_to = g_to + 1 end
  end
  for c = 0, COLS - 1 do
    if cur[c] then
      local m = 0
      if up[c] then m = m + 1 end
      if cur[(c + 1) % COLS] then m = m + 2 end
      if down[c] then m = m + 4 end
      if cur[(c - 1) % COLS] then m = m + 8 end
      if m == 15 and rnd() < 0.3 then m = 16 + rndi(0, 6) end
      cell(STATION, c, lr, metatile(m), 2)
    elseif g and c >= g_from and c <= g_to then
      local piece = GIRDER_MID
      if c == g_from and cur[(c - 1) % COLS] then
        piece = GIRDER_LEFT
      elseif c == g_to and cur[(c + 1) % COLS] then
        piece = GIRDER_RIGHT
      end
      cell(STATION, c, lr, metatile(piece), 2)
    else
      cell(STATION, c, lr, metatile(EMPTY), 0)
    end
  end
  hull[r + 3], girders[r + 3] = nil, nil   -- rows far below are no longer needed
end

-- Starts the station from scratch (a new play or the title).
function BG.reset()
  hull, girders = {}, {}
  near_y = 0
  fill_top = 20
  wl, wr, tl, tr, seg = 2, 2, 2, 2, 0
  BG.open = false
  -- Rows 16 down to -1 cover the screen (and one row above it).
  for r = 16, -1, -1 do write_row(r) end
  gen_row = -1
end

function BG.init()
  map_load("space", "stars", STARS)
  map_load("space", "nebula", NEBULA)
  layer_size(STATION, COLS, ROWS, 16)
  fill(STATION, metatile(EMPTY), 0)
  layer_prio(STARS, 0)
  layer_prio(NEBULA, 0)
  layer_prio(STATION, 1)
  for _, l in ipairs({ STARS, NEBULA, STATION }) do layer_on(l) end
  -- The ripple: every screen line of the nebula is shifted by up to 3 px, a sine wave of
  -- 64 lines. The table stays put while the clouds scroll through it.
  for line = 0, 255 do
    linescroll(NEBULA, line, math.floor(C.SIN[(line * 4) % 256] * 2.5 + 0.5), 0)
  end
  BG.reset()
end

-- The station is hidden on the title screen.
function BG.show_station(on)
  layer_on(STATION, on)
end

-- Scrolls everything; `ship_x` gives the sideways parallax (the near layer moves most).
function BG.update(ship_x)
  far_y = far_y - SPEED_FAR
  mid_y = mid_y - SPEED_MID
  near_y = near_y - SPEED_NEAR
  -- Stream in the rows about to appear at the top.
  local need = math.floor(near_y / 16) - 1
  while gen_row > need do
    gen_row = gen_row - 1
    write_row(gen_row)
  end
  local dx = (ship_x or 128) - 128
  scroll(STARS, dx / 32, far_y)
  scroll(NEBULA, dx / 16, mid_y)
  scroll(STATION, dx / 10, near_y)
end

return BG
