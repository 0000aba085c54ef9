-- log calls __tostring as metered Lua code.
function update()
  log(setmetatable({}, {__tostring = function()
    while true do end
  end}))
end
