local HERO = 6 -- the hero's tile in tiles.png
local hero = { x = 0, y = 0 }

function init()
  map_load("level", "ground", 0)
  layer_on(0)
  for _, o in ipairs(map_objects("level")) do
    if o.name == "start" then hero.x, hero.y = o.x - 4, o.y - 8 end
  end
end

function update()
  if btn("left") then hero.x = hero.x - 1 end
  if btn("right") then hero.x = hero.x + 1 end
end

function draw()
  sprite(HERO, hero.x, hero.y, 1, 1, 1)
end
