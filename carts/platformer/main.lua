-- Platformer: a Tiled stage walked with the collision unit. The hero runs, jumps (variable
-- height, coyote time, jump buffering), climbs ladders, drops through one-way floors, slides
-- on ice; walkers patrol with the same unit; coins and the goal are found with hitboxes.

local INK, WHITE, GOLD, RED = 1, 2, 3, 4 -- palette 0 colours for the overlay
local SPRITES = 256                      -- first tile of sprites.png in pattern VRAM

-- Groups and masks for the hitbox lists.
local G_HERO, G_ENEMY, G_COIN, G_GOAL = 0, 1, 2, 3

-- Feel, in pixels per frame.
local ACCEL, MAX_RUN, FRICTION, ICE_FRICTION = 0.2, 2.0, 0.25, 0.03
local GRAVITY, MAX_FALL, JUMP, JUMP_CUT = 0.3, 6, -5.0, -1.5
local COYOTE, BUFFER, CLIMB = 5, 5, 1.25

-- Pattern tile of 16x16 slot k of sprites.png (8 slots per row).
local function slot(k)
  return SPRITES + (k // 8) * 32 + (k % 8) * 2
end

local hero, start
local cam = { x = 0, y = 0 }
local coins, walkers = {}, {}
local goal
local map_w, map_h
local score, lives, cleared = 0, 3, false

local function respawn()
  hero = { x = start.x, y = start.y, w = 10, h = 15, vx = 0, vy = 0,
           mode = "air", facing = 1, coyote = 0, buffer = 0, anim = 0, hurt = 0 }
end

function init()
  map_w, map_h = map_load("stage1", "terrain", 0)
  map_load("stage1", "background", 1)
  col_load("stage1", "terrain")
  col_margin(4, MAX_RUN)
  layer_prio(0, 1)
  layer_prio(1, 0)
  layer_on(0)
  layer_on(1)
  for _, o in ipairs(map_objects("stage1")) do
    if o.name == "player_start" then
      start = { x = o.x - 5, y = o.y - 15 }
    elseif o.name == "coin" then
      coins[#coins + 1] = { x = o.x, y = o.y, taken = false }
    elseif o.name == "walker" then
      walkers[#walkers + 1] = { x = o.x + 2, y = o.y + 2, w = 12, h = 14, vx = -0.5, vy = 0 }
    elseif o.name == "goal" then
      goal = o
    end
  end
  respawn()
  music("stage1")
  log("platformer: " .. #coins .. " coins, " .. #walkers .. " walkers")
end

local function update_hero()
  local h = hero
  local dir = (btn("right") and 1 or 0) - (btn("left") and 1 or 0)
  h.buffer = btnp("a") and BUFFER or math.max(0, h.buffer - 1)

  if h.mode == "ladder" then
    h.vx = dir * 0.75
    h.vy = ((btn("down") and 1 or 0) - (btn("up") and 1 or 0)) * CLIMB
    if h.buffer > 0 then
      h.mode, h.vy, h.buffer = "air", JUMP * 0.8, 0
    end
  else
    local friction = h.on_ice and ICE_FRICTION or FRICTION
    if dir ~= 0 then
      h.vx = math.max(-MAX_RUN, math.min(MAX_RUN, h.vx + dir * ACCEL))
      h.facing = dir
    elseif h.vx > 0 then
      h.vx = math.max(0, h.vx - friction)
    else
      h.vx = math.min(0, h.vx + friction)
    end
    h.vy = math.min(MAX_FALL, h.vy + GRAVITY)
    if h.buffer > 0 and (h.mode == "ground" or h.coyote > 0) then
      h.vy, h.mode, h.coyote, h.buffer = JUMP, "air", 0, 0
      sfx("jump")
    end
    if h.mode == "air" and h.vy < JUMP_CUT and not btn("a") then
      h.vy = JUMP_CUT
    end
  end

  local drop = h.mode == "ground" and btn("down") and h.on_oneway
  local vx = h.vx
  local flags = move_body(h, h.mode, { drop = drop, slope_speed = true })
  h.vx = (flags & (COL.WALL_LEFT | COL.WALL_RIGHT) ~= 0) and 0 or vx

  h.on_ice = flags & COL.ON_ICE ~= 0
  h.on_oneway = flags & COL.ON_ONEWAY ~= 0
  if flags & COL.CEILING ~= 0 and h.vy < 0 then h.vy = 0 end
  if h.mode == "ladder" then
    if flags & COL.ON_LADDER == 0 or (flags & COL.GROUND ~= 0 and btn("down")) then
      h.mode, h.vy = "ground", 0
    end
  elseif flags & COL.GROUND ~= 0 then
    h.mode, h.vy, h.coyote = "ground", 0, COYOTE
    if btn("down") and flags & COL.LADDER_TOP ~= 0 then h.mode = "ladder" end
  else
    if h.mode == "ground" then h.mode = "air" end
    h.coyote = math.max(0, h.coyote - 1)
  end
  if btn("up") and flags & COL.ON_LADDER ~= 0 and h.mode ~= "ladder" then
    h.mode, h.vx = "ladder", 0
  end
  h.anim = (math.abs(h.vx) > 0.1 and h.mode == "ground") and h.anim + 1 or 0

  if flags & COL.HAZARD ~= 0 or h.y > map_h * 16 then
    lives = lives - 1
    sfx("hurt")
    respawn()
  end
end

local function update_walkers()
  for _, w in ipairs(walkers) do
    if not w.dead then
      local vx = w.vx
      w.vy = math.min(MAX_FALL, w.vy + GRAVITY)
      local flags = move_body(w, w.grounded and "ground" or "air")
      w.grounded = flags & COL.GROUND ~= 0
      if w.grounded then w.vy = 0 end
      -- Turn at walls and at the edge of a drop.
      local ahead = vx > 0 and w.x + w.w + 1 or w.x - 1
      local below = col_get(ahead // 16, (w.y + w.h + 2) // 16)
      if flags & (COL.WALL_LEFT | COL.WALL_RIGHT) ~= 0 or (w.grounded and below == "empty") then
        vx = -vx
      end
      w.vx = vx
    end
  end
end

local function collect()
  hb_add(0, G_HERO, (1 << G_ENEMY) | (1 << G_COIN) | (1 << G_GOAL), hero.x, hero.y, hero.w, hero.h)
  for i, c in ipairs(coins) do
    if not c.taken then hb_add(100 + i, G_COIN, 0, c.x + 3, c.y + 2, 10, 12) end
  end
  for i, w in ipairs(walkers) do
    if not w.dead then hb_add(200 + i, G_ENEMY, 0, w.x, w.y, w.w, w.h) end
  end
  if goal then hb_add(300, G_GOAL, 0, goal.x, goal.y, goal.w, goal.h) end
  local pairs_list, n = hb_pairs()
  for i = 1, n * 2, 2 do
    local other = pairs_list[i + 1]
    if other >= 300 then
      if not cleared then music() sfx("clear") end
      cleared = true
    elseif other >= 200 then
      local w = walkers[other - 200]
      if hero.vy > 0 and hero.y + hero.h < w.y + 8 then
        w.dead = true
        hero.vy = JUMP * 0.6
        score = score + 5
        sfx("stomp")
      elseif hero.hurt == 0 then
        lives = lives - 1
        hero.hurt = 60
        sfx("hurt")
      end
    elseif other >= 100 then
      coins[other - 100].taken = true
      score = score + 1
      sfx("coin")
    end
  end
  hero.hurt = math.max(0, hero.hurt - 1)
  if lives <= 0 then
    lives, score = 3, 0
    for _, c in ipairs(coins) do c.taken = false end
    for _, w in ipairs(walkers) do w.dead = false end
    respawn()
  end
end

function update()
  if cleared then return end
  update_hero()
  update_walkers()
  collect()
  cam.x = math.max(0, math.min(map_w * 16 - 256, hero.x - 123))
  cam.y = math.max(0, math.min(map_h * 16 - 256, hero.y - 120))
end

function draw()
  local cx, cy = cam.x // 1, cam.y // 1
  scroll(0, cx, cy)
  scroll(1, cx // 2, cy)
  local t = frame()
  local h = hero
  local frame_tile
  if h.mode == "ladder" then
    frame_tile = slot(8 + (h.y // 6) % 2)
  elseif h.mode == "air" then
    frame_tile = h.vy < 0 and slot(6) or slot(7)
  elseif h.anim > 0 then
    frame_tile = slot(2 + (h.anim // 6) % 4)
  else
    frame_tile = slot((t // 30) % 2)
  end
  if h.hurt > 0 and (t // 4) % 2 == 0 then
    spr_hide(0)
  else
    spr(0, h.x // 1 - 3 - cx, h.y // 1 - 1 - cy, frame_tile, 2, 2, h.facing < 0 and 1 or 0)
  end
  local i = 1
  for _, c in ipairs(coins) do
    if c.taken then
      spr_hide(i)
    else
      spr(i, c.x - cx, c.y - cy, slot(15 + (t // 10) % 2), 2, 2)
    end
    i = i + 1
  end
  for _, w in ipairs(walkers) do
    if w.dead then
      spr_hide(i)
    else
      spr(i, w.x // 1 - 2 - cx, w.y // 1 - 2 - cy, slot(11 + (t // 12) % 2), 2, 2, w.vx > 0 and 1 or 0)
    end
    i = i + 1
  end
  rectfill(0, 0, 255, 11, INK)
  print("STAGE 1", 4, 2, WHITE)
  print("LIVES " .. lives, 92, 2, RED)
  print("SCORE " .. score, 176, 2, GOLD)
  if cleared then
    rectfill(60, 110, 195, 138, INK)
    print("STAGE CLEAR!", 80, 116, GOLD)
    print("score " .. score, 96, 126, WHITE)
  end
end
