    $sql = $llm->complete("Convert to MySQL: " . $question);
    $rows = DB::select($sql);
