-- Counts its runs in save RAM: a number slot, and a table of the runs' frames.
function init()
  local runs = sd_get(0) + 1
  sd_set(0, runs)
  local record = sd_read() or { name = "counter", frames = {} }
  log("run " .. runs .. ", " .. #record.frames .. " earlier runs recorded")
end

function update()
  if frame() == 29 then
    local record = sd_read() or { name = "counter", frames = {} }
    record.frames[#record.frames + 1] = frame()
    sd_write(record)
  end
end

function draw()
end
