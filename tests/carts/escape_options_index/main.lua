-- bu_fire reads its options table raw: the looping __index never runs.
function update() bu_type(0, 1)
  local options = setmetatable({}, {__index = function() while true do end end})
  bu_fire(0, 0, 0, 1, 0, options)
  error("bu_fire read the options without their metatable")
end
