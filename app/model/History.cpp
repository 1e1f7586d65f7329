#include "app/model/History.h"

#include <algorithm>

namespace navbench {

void History::changed(Change c) {
  ++m_version;
  if (onChange) onChange(c);
}

void History::push(HistoryClient* client, std::string what) {
  if (!client) return;
  m_done.push_back({client, std::move(what)});
  if (m_done.size() > kMaxSteps) m_done.erase(m_done.begin());
  m_undone.clear();
  changed(Change::Push);
}

bool History::undo() {
  if (m_done.empty()) return false;
  Step s = std::move(m_done.back());
  m_done.pop_back();
  s.client->undo();
  m_undone.push_back(std::move(s));
  changed(Change::Undo);
  return true;
}

bool History::redo() {
  if (m_undone.empty()) return false;
  Step s = std::move(m_undone.back());
  m_undone.pop_back();
  s.client->redo();
  m_done.push_back(std::move(s));
  changed(Change::Redo);
  return true;
}

const std::string& History::undoName() const {
  static const std::string none;
  return m_done.empty() ? none : m_done.back().what;
}

const std::string& History::redoName() const {
  static const std::string none;
  return m_undone.empty() ? none : m_undone.back().what;
}

void History::noteChange() { changed(Change::Note); }

void History::reset() {
  m_done.clear();
  m_undone.clear();
  changed(Change::Reset);
}

void History::forget(const HistoryClient* client) {
  auto of = [client](const Step& s) { return s.client == client; };
  m_done.erase(std::remove_if(m_done.begin(), m_done.end(), of), m_done.end());
  m_undone.erase(std::remove_if(m_undone.begin(), m_undone.end(), of), m_undone.end());
}

} // namespace navbench
