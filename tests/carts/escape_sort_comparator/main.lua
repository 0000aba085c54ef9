-- A sort comparator, and an __lt metamethod sort calls, are metered Lua code.
function update()
  local lt = {__lt = function(a, b)
    while true do end
  end}
  local items = {}
  for i = 1, 10 do items[i] = setmetatable({}, lt) end
  table.sort(items)
end
