function update()
  local x = = 1
end
