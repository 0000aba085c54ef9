-- Code inside a coroutine is metered like any other.
function update()
  local co = coroutine.wrap(function()
    while true do end
  end)
  co()
end
