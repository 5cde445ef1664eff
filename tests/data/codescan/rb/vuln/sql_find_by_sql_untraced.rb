  def self.search(term)
    find_by_sql("SELECT * FROM articles WHERE title LIKE '%#{term}%'")
  end
