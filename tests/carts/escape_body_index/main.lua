-- move_body reads the body raw: a looping __index cannot run inside the call.
function update()
  col_size(4, 4)
  local body = setmetatable({w = 8, h = 8}, {__index = function() while true do end end})
  move_body(body, "air")
end
