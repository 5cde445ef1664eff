  def index
    @users = User.where(name: params[:name])
    @sorted = Product.order(created_at: :desc)
    @hits = Article.where('title LIKE ?', "%#{Article.sanitize_sql_like(params[:q])}%")
  end
