    klass = params[:model].constantize
    @records = klass.all
