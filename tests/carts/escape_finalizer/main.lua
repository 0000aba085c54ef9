-- Finalizers run with Lua's hook off: a metatable with __gc is refused.
local keep = setmetatable({}, {__gc = function() while true do end end})
function update() end
