#version 330 core
// Directional light + hemisphere ambient, a faint 1 m grid on every surface, distance fog.
// uWire != 0 draws the flat wireframe colour instead (the overlay pass).
in vec3 vWorld;
in vec3 vNormal;
in vec4 vColor;

uniform vec3 uLightDir;   // unit vector towards the light
uniform float uAmbient;   // share of ambient light in [0, 1]
uniform vec3 uEye;
uniform int uGrid;
uniform int uWire;
uniform vec4 uWireColor;
uniform vec3 uFogColor;
uniform float uFogDistance; // distance at which fog reaches 50 %

out vec4 fragColor;

void main() {
  if (uWire != 0) {
    fragColor = uWireColor;
    return;
  }
  vec3 n = normalize(vNormal);
  vec3 base = vColor.rgb;
  if (uGrid != 0) {
    vec2 uv = abs(n.y) > 0.7 ? vWorld.xz : (abs(n.x) > abs(n.z) ? vWorld.zy : vWorld.xy);
    vec2 fw = max(fwidth(uv), vec2(1e-4));
    vec2 g = abs(fract(uv - 0.5) - 0.5) / fw;
    float line = 1.0 - min(min(g.x, g.y), 1.0);
    float fade = clamp(1.0 - max(fw.x, fw.y) * 2.0, 0.0, 1.0); // hide the grid where it would alias
    base *= 1.0 - 0.16 * line * fade;
  }
  float diffuse = max(dot(n, uLightDir), 0.0);
  float hemi = 0.55 + 0.45 * n.y;
  vec3 color = base * (uAmbient * hemi + (1.0 - uAmbient) * diffuse);
  float d = length(vWorld - uEye);
  float fog = 1.0 - exp2(-d / max(uFogDistance, 1e-3));
  color = mix(color, uFogColor, clamp(fog * 0.5, 0.0, 0.6));
  fragColor = vec4(color, 1.0);
}
