#pragma once
// The scoring of stills against box labels (tracker::evaluate_labels) as tables and JSON, shared by
// `swarmtrack eval --labels` and `swarmtrack bench --suite real`.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "output.h"
#include "tracker/eval.h"

namespace app {

// (title, table): per category with the any-sign row, recall by sign width, confusion of categories.
std::vector<std::pair<std::string, Table>> real_eval_tables(const tracker::RealEvalReport& r);
// One line on what was scored and how (images, labels, don't-care, IoU).
std::string real_eval_summary(const tracker::RealEvalReport& r, const tracker::RealEvalSettings& s);
nlohmann::json real_eval_json(const tracker::RealEvalReport& r, const tracker::RealEvalSettings& s);

} // namespace app
