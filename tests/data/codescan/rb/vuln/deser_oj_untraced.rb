def load_job(json)
  Oj.load(json, mode: :object)
end
