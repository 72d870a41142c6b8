// report_formats.cpp - the reporter of each format, and what the document
// formats print around the inputs' findings.
#include "report.hpp"

namespace utf8guard::cli {

std::unique_ptr<reporter> make_reporter(output_format format, const std::string& path, channel& out,
                                        bool hints) {
  switch (format) {
    case output_format::text: return make_text_reporter(path, out);
    case output_format::json: return make_json_reporter(path, out, hints);
    case output_format::sarif: return make_sarif_reporter(path, out);
    case output_format::github: return make_github_reporter(path, out);
    case output_format::gitlab: return make_gitlab_reporter(path, out);
    case output_format::quiet: break;
  }
  return nullptr;
}

std::string document_start(output_format format) {
  switch (format) {
    case output_format::sarif: return sarif_document_start();
    case output_format::gitlab: return "[\n";
    default: return {};
  }
}

std::string document_end(output_format format) {
  switch (format) {
    case output_format::sarif: return "]}]}\n";
    case output_format::gitlab: return "]\n";
    default: return {};
  }
}

}  // namespace utf8guard::cli
