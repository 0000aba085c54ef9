-- A gsub replacement function is metered Lua code.
function update()
  string.gsub(string.rep("a", 100), "a", function(c)
    while true do end
  end)
end
