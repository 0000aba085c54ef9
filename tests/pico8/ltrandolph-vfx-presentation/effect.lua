function reset_effects()
  particles = {}
  emitters = {}
  trails = {}
  reset_blending()
end