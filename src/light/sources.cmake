# sources of src/light (listed explicitly)
