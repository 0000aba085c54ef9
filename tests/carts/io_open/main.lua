local f = io.open("/etc/passwd")
function update() end
