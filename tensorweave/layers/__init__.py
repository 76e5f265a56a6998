"""tensorweave.layers"""
