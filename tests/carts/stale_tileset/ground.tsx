<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="ground" tilewidth="16" tileheight="16" tilecount="16" columns="4">
 <image source="ground.png" width="64" height="64"/>
</tileset>
