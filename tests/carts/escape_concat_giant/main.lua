-- Doubling a string runs into the memory limit (or the cap), never the host's memory.
function update()
  local s = "x"
  for i = 1, 40 do s = s .. s end
end
