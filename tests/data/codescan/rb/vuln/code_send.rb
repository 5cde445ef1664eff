    @report = Report.send(params[:type], current_user)
