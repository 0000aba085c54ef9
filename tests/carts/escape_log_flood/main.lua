-- log keeps a bounded line and a bounded frame, and escapes control characters.
function update()
  local huge = string.rep("\27[2J\7", 200000)
  for i = 1, 2000 do log(huge, i) end
  error("the flood was bounded")
end
