-- One call of string.find that backtracks for minutes in Lua's own matcher.
function update()
  string.find(string.rep("a", 100000), string.rep("a*", 50) .. "b")
end
