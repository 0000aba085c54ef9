<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.2" tiledversion="1.2.0" name="dungeon-32x32" tilewidth="32" tileheight="32" tilecount="5" columns="5">
 <image source="dungeon-32x32.png" width="160" height="32"/>
 <tile id="0" type="character">
  <properties>
   <property name="characterType" value="wizard"/>
  </properties>
 </tile>
 <tile id="1" type="character">
  <properties>
   <property name="characterType" value="wizard"/>
  </properties>
 </tile>
 <tile id="2" type="character">
  <properties>
   <property name="characterType" value="wizard"/>
  </properties>
 </tile>
 <tile id="3" type="character">
  <properties>
   <property name="characterType" value="knight"/>
  </properties>
 </tile>
 <tile id="4" type="character">
  <properties>
   <property name="characterType" value="dwarf"/>
  </properties>
 </tile>
</tileset>
