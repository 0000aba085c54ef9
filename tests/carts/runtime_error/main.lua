function update()
  local player = nil
  player.x = 1
end
