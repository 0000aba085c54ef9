function init()
  map_load("level", "ground", 0)
  layer_on(0)
end
