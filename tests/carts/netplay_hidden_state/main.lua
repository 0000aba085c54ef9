-- A cart whose script holds a value the hardware does not show until frame 600: a local
-- captured by `poke` (which the cart never calls; tests call it on one peer to make the
-- peers' scripts part) and a field of a table in a global. tests/netplay.rs checks that a
-- desync is found within a few frames of the change, not at frame 600.
local secret = 0
hidden = { counts = { 1, 2, 3 }, name = "kept" }
local t = 0

function poke()
  secret = secret + 1
  hidden.counts[2] = hidden.counts[2] + secret
end

function update()
  t = t + 1
end

function draw()
  cls(1)
  if t >= 600 then
    print(tostring(secret + hidden.counts[2]), 8, 8, 7)
  end
end
