-- The worked example of docs/profiling.md: a turret fires a ring of 96 bullets every
-- second over a star field the script moves and draws itself. Each ring costs
-- 96 x 160 = 15360 cycles of bullet spawns in one frame, which pushes that frame over the
-- budget. Set SPREAD_FRAMES to 3 to fire the same ring over three frames (the X68000
-- shmups' spread burst): the same bullets, a third of the spawn cost per frame, no slowdown.

local RING = 96
local SPREAD_FRAMES = 1
local STARS = 2100

local stars = {}
local t = 0

-- A round 8x8 bullet drawn into pattern tile 1 (colours of palette 2).
local function make_bullet_tile()
  for y = 0, 7 do
    for x = 0, 7 do
      local dx, dy = x - 3.5, y - 3.5
      local d = dx * dx + dy * dy
      tset(1, x, y, d < 4 and 2 or (d < 12 and 1 or 0))
    end
  end
end

function init()
  make_bullet_tile()
  bu_type(0, 1, 1, 2, 3, 3)
  for i = 1, STARS do
    stars[i] = { x = rndi(0, 255), y = rndi(0, 255), speed = rndi(1, 3) }
  end
end

local function move_stars()
  for i = 1, STARS do
    local s = stars[i]
    s.y = s.y + s.speed
    if s.y > 255 then s.y = s.y - 256 end
  end
end

local function fire_ring()
  local start = (t // 60) * 8
  if SPREAD_FRAMES == 1 then
    bu_ring(128, 72, RING, 1.25, 0, start)
  else
    bu_burst(128, 72, RING, 1.25, 0, SPREAD_FRAMES, start)
  end
end

function update()
  t = t + 1
  prof_begin("stars")
  move_stars()
  prof_end()
  prof_begin("turret")
  if t % 60 == 0 then fire_ring() end
  prof_end()
end

function draw()
  prof_begin("draw stars")
  for i = 1, STARS do
    local s = stars[i]
    pset(s.x, s.y, 16 + s.speed)
  end
  prof_end()
  local live = bu_count()
  print("bullets " .. live, 4, 4, 1)
  print(SPREAD_FRAMES == 1 and "ring: one frame" or "ring: spread", 4, 14, 2)
end
