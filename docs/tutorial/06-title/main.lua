-- Coin Hop: take the coins before the time runs out.
local SPEED, GRAVITY, JUMP, MAX_FALL = 1.25, 0.2, -3.6, 4
local INK, WHITE, GOLD = 1, 2, 3 -- colours of palette 0 (cart.toml)
local HERO, HERO_WALK, COIN = 6, 7, 5 -- tiles of tiles.png
local PLAY_TIME = 20 -- seconds

local state = "title" -- "title", "play" or "over"
local hero, coins, score, started

local function start()
  hero = { x = 0, y = 0, w = 6, h = 8, vx = 0, vy = 0, mode = "air", flip = 0 }
  coins = {}
  for _, o in ipairs(map_objects("level")) do
    if o.name == "start" then hero.x, hero.y = o.x - 3, o.y - 8 end
    if o.name == "coin" then coins[#coins + 1] = { x = o.x - 4, y = o.y - 4 } end
  end
  score, started, state = 0, time(), "play"
end

local function finish()
  state = "over"
  sfx("over")
end

function init()
  map_load("level", "ground", 0)
  layer_on(0)
  col_load("level", "ground")
  btnp_repeat(0) -- btnp only on the press: holding A must not jump again
end

local function move_hero()
  hero.vx = 0
  if btn("left") then hero.vx, hero.flip = -SPEED, 1 end
  if btn("right") then hero.vx, hero.flip = SPEED, 0 end
  if hero.mode == "ground" and btnp("a") then
    hero.vy, hero.mode = JUMP, "air"
    sfx("jump")
  end
  hero.vy = math.min(hero.vy + GRAVITY, MAX_FALL)
  local flags = move_body(hero, hero.mode)
  if flags & COL.GROUND ~= 0 then
    hero.mode, hero.vy = "ground", 0
  else
    hero.mode = "air"
  end
  if flags & COL.CEILING ~= 0 then hero.vy = 0 end
end

local function take_coins()
  for i = #coins, 1, -1 do
    local c = coins[i]
    if rect_hit(hero.x, hero.y, hero.w, hero.h, c.x, c.y, 8, 8) then
      table.remove(coins, i)
      score = score + 10
      sfx("coin")
    end
  end
end

function update()
  if state == "title" then
    if btnp("start") or btnp("a") then start() end
  elseif state == "play" then
    move_hero()
    take_coins()
    if #coins == 0 or time() - started >= PLAY_TIME then finish() end
  elseif btnp("start") then
    state = "title"
  end
end

local function draw_title()
  cls(INK)
  circfill(128, 90, 24, GOLD)
  circ(128, 90, 24, WHITE)
  print("COIN HOP", 128 - text_width("COIN HOP") / 2, 130, WHITE)
  local hint = "press start"
  print(hint, 128 - text_width(hint, "small") / 2, 150, GOLD, "small")
end

local function draw_play()
  for _, c in ipairs(coins) do
    sprite(COIN, c.x, c.y, 1, 1, 1)
  end
  local walking = hero.mode == "ground" and hero.vx ~= 0 and (frame() // 8) % 2 == 1
  sprite(walking and HERO_WALK or HERO, hero.x - 1, hero.y, 1, 1, 1, hero.flip)
  local left = math.max(0, PLAY_TIME - (time() - started))
  rectfill(0, 0, 255, 9, INK)
  print("score " .. score, 4, 2, WHITE, "small")
  print(string.format("time %d", math.ceil(left)), 200, 2, GOLD, "small")
end

function draw()
  if state == "title" then
    draw_title()
    return
  end
  draw_play()
  if state == "over" then
    rectfill(64, 100, 191, 140, INK)
    rect(64, 100, 191, 140, GOLD)
    print(#coins == 0 and "ALL COINS!" or "TIME UP", 92, 108, WHITE)
    print("score " .. score, 104, 124, GOLD, "small")
  end
end
