-- The message handler of a runaway stop does not run (it would run unhooked).
function update()
  xpcall(function() while true do end end, function() while true do end end)
end
