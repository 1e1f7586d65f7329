#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Document.h"
#include "app/panels/Panels.h"
#include "app/tools/BakeButtonUi.h"
#include "nav/NavAreas.h"

#include <imgui.h>

namespace navbench {

bool drawNavPanel(NavState& nav, NavDrawOptions& draw, unsigned hoveredRef, bool hoverHit, const float* hoverPos,
                  bool* open, BakeRunner& bake, Log& log) {
  bool changed = false;
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetMainViewport()->Size.x - 300, 330), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(290, 380), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver); // over the View panel until opened
  if (!ImGui::Begin("Navmesh", open)) {
    ImGui::End();
    return false;
  }
  if (!nav.loaded()) {
    drawNoNavmesh(bake, log); // Bake (or its progress), or open a .bin
  } else {
    ImGui::TextWrapped("%s", nav.path().c_str());
    ImGui::Text("%d tiles, %d polys", nav.tileCount(), nav.polyCount());
  }
  if (ImGui::CollapsingHeader("Draw", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("Polys (area colour)", &draw.polys);
    ImGui::Checkbox("Poly edges", &draw.polyEdges);
    ImGui::Checkbox("Portals", &draw.portals);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Edges linking two polys of the same tile (internal portals)");
    ImGui::SameLine();
    ImGui::Checkbox("Tile borders", &draw.tileBorders);
    ImGui::SameLine();
    ImGui::Checkbox("Tile coords", &draw.tileLabels);
    ImGui::Checkbox("Off-mesh links", &draw.offMeshLinks);
    ImGui::Checkbox("Detail mesh", &draw.detailMesh);
    ImGui::Checkbox("BV tree", &draw.bvTree);
    ImGui::Checkbox("Changes of the last rebake", &draw.changes);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("After an edit re-bakes tiles: polys added (green), changed in area or flags (yellow), removed (red)");
  }
  if (ImGui::CollapsingHeader("Hover", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (hoverHit) ImGui::Text("Point (%.2f, %.2f, %.2f)", double(hoverPos[0]), double(hoverPos[1]), double(hoverPos[2]));
    else ImGui::TextDisabled("Point: -");
    if (hoveredRef && nav.loaded()) {
      uint16_t flags = 0;
      uint8_t area = 0;
      nav.mesh().getPolyFlags(hoveredRef, &flags);
      nav.mesh().getPolyArea(hoveredRef, &area);
      ImGui::Text("Poly ref %u  area %u  flags 0x%x", hoveredRef, unsigned(area), unsigned(flags));
    } else {
      ImGui::TextDisabled("Poly: -");
    }
  }
  if (ImGui::CollapsingHeader("Filter", ImGuiTreeNodeFlags_DefaultOpen)) {
    nav::QueryFilter& f = nav.filter();
    static const char* flagNames[nav::FLAG_NAMED_COUNT] = {"walk", "swim", "door", "jump", "disabled"};
    ImGui::TextUnformatted("Include");
    unsigned inc = f.getIncludeFlags(), exc = f.getExcludeFlags();
    for (int i = 0; i < nav::FLAG_NAMED_COUNT; ++i) {
      ImGui::PushID(i);
      ImGui::SameLine();
      if (ImGui::CheckboxFlags(flagNames[i], &inc, 1u << i)) changed = true;
      ImGui::PopID();
    }
    ImGui::TextUnformatted("Exclude");
    for (int i = 0; i < nav::FLAG_NAMED_COUNT; ++i) {
      ImGui::PushID(100 + i);
      ImGui::SameLine();
      if (ImGui::CheckboxFlags(flagNames[i], &exc, 1u << i)) changed = true;
      ImGui::PopID();
    }
    f.setIncludeFlags(uint16_t(inc));
    f.setExcludeFlags(uint16_t(exc));
    static const char* areaNames[nav::AREA_NAMED_COUNT] = {"ground", "water", "road", "door", "grass", "jump"};
    for (int a = 0; a < nav::AREA_NAMED_COUNT; ++a) {
      ImGui::PushID(200 + a);
      float c = f.getAreaCost(a), e = f.getAreaEnterCost(a);
      const ImU32 col = areaColor(uint8_t(a), 255);
      ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(col), ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
      ImGui::SameLine();
      ImGui::SetNextItemWidth(80);
      if (ImGui::SliderFloat("##cost", &c, 0.1f, 20.0f, "%.1f")) {
        f.setAreaCost(a, c);
        changed = true;
      }
      ImGui::SameLine();
      ImGui::SetNextItemWidth(70);
      if (ImGui::SliderFloat("##enter", &e, 0.0f, 50.0f, "+%.0f")) {
        f.setAreaEnterCost(a, e);
        changed = true;
      }
      ImGui::SameLine();
      ImGui::TextUnformatted(areaNames[a]);
      ImGui::PopID();
    }
    float hs = f.getHeuristicScale();
    if (ImGui::SliderFloat("Heuristic", &hs, 0.0f, 2.0f, "%.3f")) {
      f.setHeuristicScale(hs);
      changed = true;
    }
    int nodes = nav.maxNodes();
    if (ImGui::SliderInt("Node budget", &nodes, 16, 65535, "%d", ImGuiSliderFlags_Logarithmic)) {
      nav.setMaxNodes(nodes);
      changed = true;
    }
    if (ImGui::Button("Defaults")) {
      nav::QueryFilter d;
      nav::applyDefaultAreaCosts(d);
      d.setIncludeFlags(nav::FLAG_ALL ^ nav::FLAG_DISABLED);
      d.setExcludeFlags(nav::FLAG_DISABLED);
      f = d;
      nav.setMaxNodes(4096);
      changed = true;
    }
  }
  ImGui::End();
  return changed;
}

void drawHelpWindow(bool* open) {
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Help (F1)", open)) {
    ImGui::End();
    return;
  }
  static const char* rows[][2] = {
      {"Left click", "tester: set the end (Pick: pick a point)"},
      {"Shift+left click / right click", "tester: set the start"},
      {"Left drag", "orbit the camera"},
      {"Right / middle drag", "pan"},
      {"Wheel", "zoom toward the cursor"},
      {"W A S D Q E (+Shift)", "fly (faster)"},
      {"F", "frame the level"},
      {"Ctrl+T", "two-sided level: draw and click both sides of its triangles"},
      {"Space", "step (Pathfind Follow)"},
      {"Ctrl+Z / Ctrl+Y", "undo / redo start and end changes"},
      {"Ctrl+O", "open a file (.obj, .glb, .gltf, level .json, .bin, scenario .json)"},
      {"Ctrl+S / Ctrl+Shift+S", "save the scenario / save it as"},
      {"Ctrl+Shift+C / Ctrl+Shift+V", "copy / paste the scenario as text"},
      {"F12", "screenshot with the scenario inside (File > Screenshot options)"},
      {"Ctrl+B", "bake the open level with the Bake panel's settings"},
      {"Ctrl+Q", "quit (asks first when a bake is not saved)"},
      {"F5", "the Check panel: find islands, long detours, unlinked seams... (runs when opened)"},
      {"F6", "the Why panel: why the current path query gave its answer, with fixes to try"},
      {"Shift+F6", "Why panel: apply its first fix (Ctrl+Z undoes it)"},
      {"F7", "the Agents panel: each agent type's navmesh, Compare agents, Reachability"},
      {"F1", "this window"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

std::unique_ptr<Panel> makeNavPanel() {
  return makePanel({"Navmesh", "Navmesh panel", 2}, [](PanelContext& c, bool& shown) {
    if (!shown) return;
    Document& doc = c.doc;
    const float hp[3] = {doc.hover.pos.x, doc.hover.pos.y, doc.hover.pos.z};
    if (drawNavPanel(doc.nav, doc.navDraw, doc.hover.poly, doc.hover.hit, hp, &shown, doc.bake, c.log)) doc.filterChanged();
  });
}

// Help > Shortcuts, F1.
std::unique_ptr<Panel> makeHelpWindow() {
  return makePanel({"Help", "", 0, false}, [](PanelContext&, bool& shown) { if (shown) drawHelpWindow(&shown); });
}

} // namespace navbench
