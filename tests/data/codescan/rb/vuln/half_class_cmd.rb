    def export
      filename = params[:filename]
      system("zip -r /tmp/#{filename}.zip #{EXPORT_DIR}")
      send_file "/tmp/#{filename}.zip"
