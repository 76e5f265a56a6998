"""tensorweave.nn"""
