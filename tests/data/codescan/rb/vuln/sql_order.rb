    @products = Product.order("#{params[:sort]} #{params[:dir]}")
