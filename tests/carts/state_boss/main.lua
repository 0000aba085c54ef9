-- A cart built to test save states: a boss whose attack pattern is a coroutine suspended
-- mid-pattern, closures sharing an upvalue, a metatable-driven class system, and tables
-- used as keys. Everything it draws depends on all of them, so a state that lost any would
-- show in the frame hashes.

-- A tiny class system: methods through __index, a __tostring, inheritance.
local Class = {}
Class.__index = Class
function Class:extend()
  local sub = setmetatable({}, self)
  sub.__index = sub
  sub.__tostring = self.__tostring
  return sub
end
function Class:new(o)
  return setmetatable(o or {}, self)
end

local Mover = Class:extend()
Mover.__tostring = function(m) return "mover@" .. m.x .. "," .. m.y end
function Mover:step() self.x, self.y = self.x + self.dx, self.y + self.dy end

local Shot = Mover:extend()
function Shot:alive() return self.x > -8 and self.x < 264 and self.y > -8 and self.y < 264 end

-- Two closures sharing one upvalue: a counter and its reader.
local function counter()
  local n = 0
  return function(k) n = n + k end, function() return n end
end
local add_score, score = counter()

-- Tables as keys: each shot's owner, looked up by the shot table itself.
local owner = {}
local shots = {}
local boss = Mover:new({ x = 128, y = 40, dx = 1, dy = 0 })

-- The boss's attack: a coroutine that yields between steps, suspended mid-pattern at any
-- frame a state may be saved on.
local attack = coroutine.create(function()
  while true do
    for arm = 0, 11 do
      for _ = 1, 3 do coroutine.yield() end
      local a = arm * 30 + frame() % 30
      local s = Shot:new({ x = boss.x, y = boss.y, dx = math.cos(math.rad(a)) * 2,
                           dy = math.sin(math.rad(a)) * 2 })
      shots[#shots + 1] = s
      owner[s] = boss
    end
    for _ = 1, 20 + rndi(0, 20) do coroutine.yield() end
  end
end)

function init()
  pal(0, 1, 0xffffff)
  pal(0, 2, 0xff4060)
end

function update()
  boss:step()
  if boss.x < 40 or boss.x > 216 then boss.dx = -boss.dx end
  assert(coroutine.resume(attack))
  local kept = {}
  for _, s in ipairs(shots) do
    s:step()
    if s:alive() and owner[s] == boss then kept[#kept + 1] = s else owner[s] = nil end
  end
  shots = kept
  add_score(#shots)
  if frame() % 120 == 0 then log(tostring(boss), score()) end
end

function draw()
  -- The overlay starts each frame empty.
  rectfill(boss.x - 8, boss.y - 8, boss.x + 8, boss.y + 8, 2)
  for _, s in ipairs(shots) do pset(s.x // 1, s.y // 1, 1) end
  print("SCORE " .. score(), 4, 4, 1)
end
