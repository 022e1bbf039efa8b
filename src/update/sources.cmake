# sources of src/update (listed explicitly)
