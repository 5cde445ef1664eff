def convert(input_path, out_format):
    os.system("convert " + input_path + " output." + out_format)
