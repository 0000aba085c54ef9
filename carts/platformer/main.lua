-- Platformer (work in progress): a scrolling Tiled stage and sprites moved by the d-pad.
-- The collision unit will give the hero real ground to stand on; for now the hero flies.

local INK, WHITE, GOLD = 1, 2, 3       -- palette 0 colours for the overlay
local SPRITES = 256                     -- first tile of sprites.png in pattern VRAM

-- Pattern tile of 16x16 slot k of sprites.png (8 slots per row).
local function slot(k)
  return SPRITES + (k // 8) * 32 + (k % 8) * 2
end

local hero = { x = 40, y = 176, facing = 1, anim = 0 }
local cam = { x = 0, y = 0 }
local coins, walkers = {}, {}
local map_w, map_h

function init()
  map_w, map_h = map_load("stage1", "terrain", 0)
  map_load("stage1", "background", 1)
  layer_prio(0, 1)
  layer_prio(1, 0)
  layer_on(0)
  layer_on(1)
  for _, o in ipairs(map_objects("stage1")) do
    if o.name == "player_start" then
      hero.x, hero.y = o.x - 8, o.y - 16
    elseif o.name == "coin" then
      coins[#coins + 1] = { x = o.x, y = o.y, taken = false }
    elseif o.name == "walker" then
      walkers[#walkers + 1] = { x = o.x, y = o.y, dir = -1, home = o.x }
    end
  end
  log("platformer: " .. #coins .. " coins, " .. #walkers .. " walkers")
end

local score = 0

function update()
  local dx, dy = 0, 0
  if btn("left") then dx = -2 end
  if btn("right") then dx = 2 end
  if btn("up") then dy = -2 end
  if btn("down") then dy = 2 end
  if dx ~= 0 then hero.facing = dx > 0 and 1 or -1 end
  hero.x = math.max(0, math.min(map_w * 16 - 16, hero.x + dx))
  hero.y = math.max(0, math.min(map_h * 16 - 16, hero.y + dy))
  hero.anim = (dx ~= 0 or dy ~= 0) and hero.anim + 1 or 0

  for _, c in ipairs(coins) do
    if not c.taken and math.abs(c.x - hero.x) < 12 and math.abs(c.y - hero.y) < 12 then
      c.taken = true
      score = score + 1
    end
  end
  for _, w in ipairs(walkers) do
    w.x = w.x + w.dir * 0.5
    if math.abs(w.x - w.home) > 24 then w.dir = -w.dir end
  end

  cam.x = math.max(0, math.min(map_w * 16 - 256, hero.x - 120))
  cam.y = math.max(0, math.min(map_h * 16 - 256, hero.y - 120))
end

function draw()
  scroll(0, cam.x, cam.y)
  scroll(1, cam.x // 2, cam.y)
  local t = frame()
  local run = hero.anim > 0 and slot(2 + (hero.anim // 6) % 4) or slot((t // 30) % 2)
  spr(0, hero.x - cam.x, hero.y - cam.y, run, 2, 2, hero.facing < 0 and 1 or 0)
  local i = 1
  for _, c in ipairs(coins) do
    if c.taken then
      spr_hide(i)
    else
      spr(i, c.x - cam.x, c.y - cam.y + ((t // 8 + i) % 4 == 0 and -1 or 0), slot(15 + (t // 10) % 2), 2, 2)
    end
    i = i + 1
  end
  for _, w in ipairs(walkers) do
    spr(i, w.x - cam.x, w.y - cam.y, slot(11 + (t // 12) % 2), 2, 2, w.dir > 0 and 0 or 1)
    i = i + 1
  end
  rectfill(0, 0, 255, 11, INK)
  print("STAGE 1", 4, 2, WHITE)
  print("COINS " .. score .. "/" .. #coins, 160, 2, GOLD)
end
