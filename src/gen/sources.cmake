# sources of src/gen (listed explicitly)
