function update()
  while true do end
end
