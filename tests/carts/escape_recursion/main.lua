-- Deep recursion through a metamethod ends with Lua's error, not a host stack overflow.
function update()
  local t = setmetatable({}, {__index = function(t, k) return t[k] end})
  return t.x
end
