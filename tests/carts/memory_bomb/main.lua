function update()
  local t = {}
  for i = 1, 1e9 do t[i] = string.rep("x", 65536) .. i end
end
