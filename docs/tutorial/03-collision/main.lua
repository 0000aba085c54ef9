local SPEED, GRAVITY, JUMP, MAX_FALL = 1.25, 0.2, -3.6, 4
local HERO = 6
local hero = { x = 0, y = 0, w = 6, h = 8, vx = 0, vy = 0, mode = "air", flip = 0 }

function init()
  map_load("level", "ground", 0)
  layer_on(0)
  col_load("level", "ground")
  btnp_repeat(0) -- btnp only on the press: holding A must not jump again
  for _, o in ipairs(map_objects("level")) do
    if o.name == "start" then hero.x, hero.y = o.x - 3, o.y - 8 end
  end
end

function update()
  hero.vx = 0
  if btn("left") then hero.vx, hero.flip = -SPEED, 1 end
  if btn("right") then hero.vx, hero.flip = SPEED, 0 end
  if hero.mode == "ground" and btnp("a") then
    hero.vy, hero.mode = JUMP, "air"
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

function draw()
  sprite(HERO, hero.x - 1, hero.y, 1, 1, 1, hero.flip)
end
