function init() end
function update() end
function draw() end
