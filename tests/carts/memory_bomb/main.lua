-- Allocates without end: 1 MB strings made by concatenation, whose bytes cost a cycle per
-- 64, so the 32 MiB Lua heap fills before the runaway cap.
local s = ("x"):rep(1024 * 1024)
function update()
  local t = {}
  for i = 1, 1e9 do t[i] = s .. i end
end
