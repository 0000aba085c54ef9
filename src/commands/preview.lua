-- The BulletML pattern previewer (`kairo pattern FILE.xml`): the pattern fires from the top
-- of the screen at a player marker you move with the d-pad; R or Start restarts it. With
-- `--loop` (the next line says true) the pattern starts again each time it ends; `--rank R`
-- sets BulletML's $rank (the line after).
local LOOP = false
local RANK = 0.5

local px, py = 128, 208
local source, grazes, hits = nil, 0, 0

local function disc(tile, colour, radius)
  for y = 0, 7 do
    for x = 0, 7 do
      local dx, dy = x - 3.5, y - 3.5
      local d = dx * dx + dy * dy
      if d <= radius * radius then tset(tile, x, y, d <= (radius - 1.5) ^ 2 and colour + 1 or colour) end
    end
  end
end

local function restart()
  bu_clear()
  source = bu_pattern("pattern", 128, 40, 0, LOOP)
  grazes, hits = 0, 0
end

function init()
  backdrop(0x0c0c1c)
  pal(0, 1, 0x2a2a4a)
  pal(0, 2, 0xf0f0f8)
  pal(0, 3, 0xf8c838)
  pal(1, 1, 0xe83a5a)
  pal(1, 2, 0xffd8e0)
  pal(2, 1, 0x48c8f8)
  pal(2, 2, 0xe8f8ff)
  disc(1, 1, 3.6)
  disc(2, 1, 3.2)
  bu_type(0, 1, 1, 1, 2)
  bu_rank(RANK)
  restart()
end

function update()
  local speed = btn("b") and 1 or 2
  if btn("left") then px = px - speed end
  if btn("right") then px = px + speed end
  if btn("up") then py = py - speed end
  if btn("down") then py = py + speed end
  px = math.max(4, math.min(251, px))
  py = math.max(4, math.min(251, py))
  bu_player(px, py, 1, 10)
  if btnp("r") or btnp("start") then restart() end
end

function draw()
  for _, e in ipairs(bu_events()) do
    if e.kind == "graze" then grazes = grazes + 1 elseif e.kind == "hit" then hits = hits + 1 end
  end
  spr(0, px - 4, py - 4, 2, 1, 2, 0, 3)
  local live = bu_count()
  rectfill(0, 0, 255, 9, 1)
  print("bullets " .. live, 2, 1, 2)
  print("graze " .. grazes, 104, 1, 3)
  print("hit " .. hits, 190, 1, 2)
  if not bu_source(source) then print("pattern ended - R restarts", 20, 244, 2) end
  if LOOP then print("loop", 222, 244, 1) end
end
