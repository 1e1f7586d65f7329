#version 330 core
// Debug draw: position + RGBA colour. Used alone for triangles, and with debug_line.geom /
// debug_point.geom for screen-space lines and points.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;

uniform mat4 uViewProj;

out VS {
  vec4 color;
  vec2 uv; // point sprite coordinate in [-1, 1]; 0 for lines and triangles
} vs;

void main() {
  vs.color = aColor;
  vs.uv = vec2(0.0);
  gl_Position = uViewProj * vec4(aPos, 1.0);
}
