-- Platformer: three stages walked with the collision unit. The title screen, the stages
-- (green hills, the old tower, the frozen ridge), lives and the HUD live here; the hero's
-- movement is in hero.lua and each stage's map, enemies and lifts in stage.lua.
--
-- Controls: arrows move and climb, A (Z) jumps (hold for higher), down drops through
-- one-way floors and climbs down from a ladder top, Start begins. Two players: Start on
-- pad 2 during a stage brings in a second hero (co-op; the lives are shared, the camera
-- follows player 1, and a second hero who falls comes back beside the first).

local hero = require("hero")
local stage = require("stage")

local INK, WHITE, GOLD, RED = 1, 2, 3, 4 -- palette 0 colours for the overlay
local LIVES = 3
local slot = stage.slot

local state = "title"  -- title, play, clear, over, done
local timer = 0        -- frames in the current state
local level, lives, score = 1, LIVES, 0
local world, h
local h2               -- player 2's hero, once pad 2 pressed Start during a stage
local sprites_used = 1 -- sprite slots the world drew last frame
local stage_start = 0  -- frame the current stage started on
local clear_time = 0   -- frames the stage just cleared took

-- Records kept in save RAM (cart.toml's save_id): the best score, and per stage the
-- fastest clear in frames and the most coins taken.
local records

local function load_records()
  records = sd_read()
  if type(records) ~= "table" or type(records.stages) ~= "table" then
    records = { best = 0, stages = {} }
  end
end

local function keep_stage_record(n, frames, coins)
  local r = records.stages[n] or {}
  r.time = math.min(r.time or frames, frames)
  r.coins = math.max(r.coins or 0, coins)
  records.stages[n] = r
  sd_write(records)
end

local function keep_score()
  if score > (records.best or 0) then
    records.best = score
    sd_write(records)
  end
end

-- "12.3s" for a number of frames.
local function seconds(frames)
  return string.format("%.1fs", frames / 60)
end

local function start_stage(n)
  level = n
  spr_clear()
  sprites_used = 1
  world = stage.load(n)
  h = hero.new(world.start.x, world.start.y)
  if h2 then h2 = hero.new(world.start.x, world.start.y, 1) end
  music(world.def.music)
  state, timer = "play", 0
  stage_start = frame()
end

local function new_game()
  lives, score, h2 = LIVES, 0, nil
  log("platformer: new game")
  start_stage(1)
end

local function show_title()
  spr_clear()
  sprites_used = 1
  world = stage.load(1)
  world.cam.y = 0
  state, timer = "title", 0
  music("title")
end

function init()
  -- Jumps and menus act on a fresh press of A or Start: no btnp auto-repeat.
  btnp_repeat(0)
  -- Palette 3: the hero's colours with red and blue swapped, for player 2.
  for c = 1, 15 do
    local rgb = pal(2, c)
    pal(3, c, (rgb & 0xff) << 16 | (rgb & 0xff00) | rgb >> 16)
  end
  load_records()
  show_title()
end

-- The hero takes a hit: one life less. Returns true when that was the last one.
local function take_hit()
  lives = lives - 1
  sfx("hurt")
  log("platformer: life lost (lives " .. lives .. ")")
  if lives > 0 then return false end
  music()
  state, timer = "over", 0
  log("platformer: game over")
  keep_score()
  return true
end

-- A fall into spikes or out of the map: a life, and back to the stage's start.
local function lose_life()
  if take_hit() then return end
  stage.reset_things(world)
  h = hero.new(world.start.x, world.start.y)
end

-- Player 2's hero fell: a shared life, and back beside player 1's.
local function lose_life2()
  if take_hit() then return end
  h2 = hero.new(h.x + 5, h.y + h.h, 1)
  h2.hurt = 90
end

local function stomp_or_hurt(enemy, who)
  local g = who.g
  local falling_onto = g * who.vy > 0 and
    (g > 0 and who.y + who.h < enemy.y + 8 or g < 0 and who.y > enemy.y + 8)
  if falling_onto then
    enemy.dead = true
    who.vy = g * hero.JUMP * 0.6
    who.mode = "air"
    score = score + 50
    sfx("stomp")
  elseif who.hurt == 0 then
    -- Touched: a life, and a moment of invulnerability to get away.
    who.hurt = 90
    take_hit()
  end
end

local function play()
  prof_begin("lifts")
  stage.update_lifts(world)
  prof_end()

  prof_begin("hero")
  if not h2 and btnp("start", 1) then
    h2 = hero.new(h.x + 5, h.y + h.h, 1)
    h2.hurt = 90
    sfx("flip")
    log("platformer: player 2 joins")
  end
  hero.set_gravity(h, stage.gravity_at(world, h.x + h.w / 2, h.y + h.h / 2))
  local flags = hero.update(h)
  local flags2 = 0
  if h2 then
    hero.set_gravity(h2, stage.gravity_at(world, h2.x + h2.w / 2, h2.y + h2.h / 2))
    flags2 = hero.update(h2)
  end
  prof_end()

  prof_begin("enemies")
  stage.update_enemies(world, frame())
  prof_end()

  prof_begin("hits")
  local out_of_map = h.y > world.rows * 16 + 16 or h.y < -64
  if flags & COL.HAZARD ~= 0 or out_of_map then
    lose_life()
    prof_end()
    return
  end
  if h2 and (flags2 & COL.HAZARD ~= 0 or h2.y > world.rows * 16 + 16 or h2.y < -64) then
    lose_life2()
    if state ~= "play" then
      prof_end()
      return
    end
  end
  local touches = (1 << stage.G_ENEMY) | (1 << stage.G_COIN) | (1 << stage.G_GOAL)
  hb_add(0, stage.G_HERO, touches, h.x, h.y, h.w, h.h)
  if h2 then hb_add(1, stage.G_HERO, touches, h2.x, h2.y, h2.w, h2.h) end
  stage.add_hitboxes(world)
  local list, n = hb_pairs()
  for i = 1, n * 2, 2 do
    local other = list[i + 1]
    if other == 300 then
      music()
      sfx("clear")
      state, timer = "clear", 0
      clear_time = frame() - stage_start
      keep_stage_record(level, clear_time, world.taken)
      log("platformer: stage " .. level .. " clear at frame " .. frame() .. ", score " .. score)
    elseif other >= 200 then
      local enemy = stage.enemy(world, other)
      if enemy and not enemy.dead then stomp_or_hurt(enemy, list[i] == 1 and h2 or h) end
    elseif other >= 100 then
      local coin = world.coins[other - 100]
      if not coin.taken then
        coin.taken = true
        world.taken = world.taken + 1
        score = score + 10
        sfx("coin")
      end
    end
  end
  prof_end()
  stage.follow(world, h)
  if TRACE and frame() % 10 == 0 then log("trace", frame(), h.x // 1, h.y // 1, h.mode) end
end

function update()
  timer = timer + 1
  if state == "title" then
    world.cam.x = (timer * 0.5) % (world.cols * 16 - 256)
    if btnp("start") or btnp("a") then new_game() end
  elseif state == "play" then
    play()
  elseif state == "clear" then
    if timer == 150 then
      if level < #stage.LIST then
        start_stage(level + 1)
      else
        state, timer = "done", 0
        music("title")
        log("platformer: all stages clear, score " .. score)
        keep_score()
      end
    end
  elseif state == "over" or state == "done" then
    if timer > 60 and (btnp("start") or btnp("a")) or timer == 600 then show_title() end
  end
end

local function panel(y0, y1)
  rectfill(40, y0, 215, y1, INK)
  rect(40, y0, 215, y1, GOLD)
end

local function centred(text, y, color)
  print(text, 128 - #text * 4, y, color)
end

local function draw_hud()
  rectfill(0, 0, 255, 11, INK)
  print("STAGE " .. level, 4, 2, WHITE)
  print("LIFE " .. math.max(0, lives), 68, 2, RED)
  print("COIN " .. world.taken .. "/" .. #world.coins, 124, 2, GOLD)
  print(string.format("%05d", score), 212, 2, WHITE)
end

function draw()
  local t = frame()
  local next_slot = stage.draw(world, t, 1)
  -- Hide the slots the last frame used and this one did not (after a stage change).
  for i = next_slot, sprites_used - 1 do spr_hide(i) end
  sprites_used = next_slot

  if state == "title" then
    panel(64, 150)
    centred("HILLTOP HERO", 78, GOLD)
    centred("hills, a tower, ice", 98, WHITE)
    centred("and a sky upside down", 108, WHITE)
    if (records.best or 0) > 0 then centred("best score " .. records.best, 120, WHITE) end
    if (timer // 30) % 2 == 0 then centred("PRESS START", 132, GOLD) end
    -- The hero paces along the top of the panel.
    local pace = (timer // 2) % 240
    local x = pace < 120 and 50 + pace or 290 - pace
    local pose = hero.pose({ mode = "ground", anim = timer, y = 0 }, t)
    spr(0, x, 48, pose, 2, 2, pace < 120 and 0 or 1)
    centred("arrows: move  Z: jump", 236, WHITE)
    return
  end

  local cx, cy = world.cam.x // 1, world.cam.y // 1
  if h.hurt > 0 and (t // 4) % 2 == 0 then
    spr_hide(0)
  else
    local flags = (h.facing < 0 and 1 or 0) | (h.g < 0 and 2 or 0)
    local dy = h.g < 0 and 0 or -1
    spr(0, h.x // 1 - 3 - cx, h.y // 1 + dy - cy, hero.pose(h, t), 2, 2, flags)
  end
  if h2 and h2.hurt > 0 and (t // 4) % 2 == 0 then
    spr_hide(255)
  elseif h2 then
    local flags = (h2.facing < 0 and 1 or 0) | (h2.g < 0 and 2 or 0)
    local dy = h2.g < 0 and 0 or -1
    spr(255, h2.x // 1 - 3 - cx, h2.y // 1 + dy - cy, hero.pose(h2, t), 2, 3, flags)
  end
  draw_hud()

  if state == "play" and timer < 90 then
    panel(100, 130)
    centred("STAGE " .. level, 106, GOLD)
    centred(world.def.name, 118, WHITE)
  elseif state == "clear" then
    panel(96, 150)
    centred("STAGE CLEAR!", 104, GOLD)
    centred("coins " .. world.taken .. "/" .. #world.coins, 118, WHITE)
    centred("score " .. score, 128, WHITE)
    local best = records.stages[level]
    centred("time " .. seconds(clear_time) .. "  best " .. seconds(best.time), 138, WHITE)
  elseif state == "over" then
    panel(100, 134)
    centred("GAME OVER", 108, RED)
    centred("score " .. score, 120, WHITE)
  elseif state == "done" then
    panel(80, 150)
    centred("YOU MADE IT!", 90, GOLD)
    centred("all three stages clear", 106, WHITE)
    centred("score " .. score, 120, WHITE)
    if (timer // 30) % 2 == 0 then centred("PRESS START", 136, GOLD) end
  end
end
