# sources of src/store (listed explicitly)
